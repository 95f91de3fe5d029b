import { CONFIRM_TOKEN_TTL_MS } from '@/lib/commerce/signups/tokens';
import type { OutgoingMessage } from '@/lib/commerce/signups/messages';
import { fill, mailLanguage, mailTexts } from './texts';

export type RenderedMail = { subject: string; text: string; html: string; language: string };

type Texts = ReturnType<typeof mailTexts>;
type Parts = { subject: string; intro: string; action: { label: string; url: string } | null; hint: string };
type StockTemplate = (m: OutgoingMessage, t: Texts, v: Record<string, string | number>) => Parts;

const standardBackInStock: StockTemplate = (m, t, v) => ({
  subject: fill(t.backInStockSubject, v),
  intro: fill(t.backInStockIntro, v),
  action: m.links.product ? { label: t.backInStockAction, url: m.links.product } : null,
  hint: t.backInStockHint,
});

/**
 * A stock flow's handle picks the wording of its back-in-stock mail. A Site's own e-mail flow
 * gets the standard one until it has a template here; a flow on another channel is never
 * rendered here at all (its messages wait for that channel's sender).
 */
const BACK_IN_STOCK_BY_FLOW: Record<string, StockTemplate> = {
  'back-in-stock-email': standardBackInStock,
};

function partsOf(m: OutgoingMessage, t: Texts): Parts {
  const product = m.product ? (m.product.variantTitle ? `${m.product.title} (${m.product.variantTitle})` : m.product.title) : '';
  const v = { shop: m.shopName, product, days: Math.round(CONFIRM_TOKEN_TTL_MS / 86_400_000) };
  switch (m.template) {
    case 'newsletter_confirmation':
      return { subject: fill(t.newsletterConfirmSubject, v), intro: fill(t.newsletterConfirmIntro, v), action: { label: t.confirmAction, url: m.links.confirm! }, hint: fill(t.confirmHint, v) };
    case 'stock_confirmation':
      return { subject: fill(t.stockConfirmSubject, v), intro: fill(t.stockConfirmIntro, v), action: { label: t.confirmAction, url: m.links.confirm! }, hint: fill(t.confirmHint, v) };
    case 'back_in_stock':
      return (BACK_IN_STOCK_BY_FLOW[m.flowHandle ?? ''] ?? standardBackInStock)(m, t, v);
  }
}

/**
 * The sender's name and postal address in one line (commercial mail must say who sends it and
 * where they are), the country named in the mail's language; null when the Site has no address.
 */
export function senderLine(m: Pick<OutgoingMessage, 'shopName' | 'sender' | 'locale'>): string | null {
  if (!m.sender) return null;
  const { legalName, postalAddress: a } = m.sender;
  let country = a.country;
  try {
    country = new Intl.DisplayNames([m.locale], { type: 'region' }).of(a.country) ?? a.country;
  } catch {
    // an unknown locale: the code says enough
  }
  const place = [a.postalCode, a.city].join(' ') + (a.region ? `, ${a.region}` : '');
  return [legalName ?? m.shopName, ...a.lines, place, country].join(', ');
}

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * Plain text and HTML with the same content, in the subscriber's language and the shop's
 * colours. No images, no remote content, no tracking: every link goes to the shop and
 * carries nothing but a token (or the market and language a product page is shown in).
 */
export function renderMail(m: OutgoingMessage): RenderedMail {
  const t = mailTexts(m.locale);
  const p = partsOf(m, t);
  const footer = fill(t.footer, { shop: m.shopName });
  const sender = senderLine(m);

  const text = [
    m.shopName,
    '',
    p.intro,
    '',
    ...(p.action ? [`${p.action.label}: ${p.action.url}`, ''] : []),
    p.hint,
    '',
    '-- ', // the signature separator mail programs recognise
    footer,
    ...(sender ? [sender] : []),
    `${t.unsubscribeText} ${m.links.unsubscribe}`,
    '',
  ].join('\n');

  const button = p.action
    ? `<p style="margin:24px 0"><a href="${escape(p.action.url)}" style="display:inline-block;background:#2f5d50;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 22px;border-radius:6px">${escape(p.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#5f5d57;word-break:break-all">${escape(p.action.url)}</p>`
    : '';
  const html = `<!doctype html>
<html lang="${escape(m.locale)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(p.subject)}</title></head>
<body style="margin:0;padding:0;background:#faf8f5;color:#1f1e1c;font:16px/1.55 ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#faf8f5"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border:1px solid #e2ddd4;border-radius:10px">
<tr><td style="padding:28px 32px">
<p style="margin:0 0 20px;font-family:'Iowan Old Style','Palatino Linotype',Palatino,Georgia,serif;font-size:22px;font-weight:600"><a href="${escape(m.links.shop)}" style="color:#1f1e1c;text-decoration:none">${escape(m.shopName)}</a></p>
<p style="margin:0 0 16px">${escape(p.intro)}</p>
${button}
<p style="margin:0;color:#5f5d57;font-size:14px">${escape(p.hint)}</p>
</td></tr></table>
<p style="max-width:560px;margin:16px auto 0;color:#5f5d57;font-size:13px">${escape(footer)} ${escape(t.unsubscribeText)} <a href="${escape(m.links.unsubscribe)}" style="color:#2f5d50">${escape(t.unsubscribeAction)}</a></p>
${sender ? `<p style="max-width:560px;margin:8px auto 0;color:#5f5d57;font-size:12px">${escape(sender)}</p>` : ''}
</td></tr></table>
</body>
</html>
`;
  return { subject: p.subject, text, html, language: mailLanguage(m.locale) };
}
