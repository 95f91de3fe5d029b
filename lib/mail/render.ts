import { CONFIRM_TOKEN_TTL_MS } from '@/lib/commerce/signups/tokens';
import type { MailImage, OutgoingMessage } from '@/lib/commerce/signups/messages';
import type { Money } from '@/lib/contract/common';
import { fill, mailLanguage, mailTexts } from './texts';

export type RenderedMail = { subject: string; text: string; html: string; language: string };

type Texts = ReturnType<typeof mailTexts>;
/** The product a back-in-stock mail is about: its picture, name, variant and price in the subscriber's market. */
type Item = { title: string; variant: string | null; price: string | null; image: MailImage | null; url: string | null };
type Parts = { subject: string; intro: string; item?: Item; action: { label: string; url: string } | null; hint: string };
type StockTemplate = (m: OutgoingMessage, t: Texts, v: Record<string, string | number>) => Parts;

const standardBackInStock: StockTemplate = (m, t, v) => ({
  subject: fill(t.backInStockSubject, v),
  intro: fill(t.backInStockIntro, v),
  item: m.product
    ? {
        title: m.product.title,
        variant: m.product.variantTitle,
        price: m.product.price ? formatPrice(m.product.price, m.locale) : null,
        image: m.product.image ?? null,
        url: m.links.product,
      }
    : undefined,
  action: m.links.product ? { label: t.backInStockAction, url: m.links.product } : null,
  hint: t.backInStockHint,
});

/** A price as the subscriber's locale writes it (`1 299,00 kr`, `89,00 €`); the decimal string goes to Intl as a string, exact. */
function formatPrice(money: Money, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: money.currency }).format(money.amount as `${number}`);
  } catch {
    return `${money.amount} ${money.currency}`;
  }
}

/** The product block of the HTML part: picture (linked to the product), name, variant and price. */
function itemHtml(item: Item): string {
  const width = 120;
  const picture = item.image
    ? `<img src="${escape(item.image.url)}" alt="${escape(item.image.alt)}" width="${width}" height="${Math.round((width * item.image.height) / Math.max(1, item.image.width))}" style="display:block;border:0;border-radius:6px;background:#f1ede6">`
    : '';
  const linked = picture && item.url ? `<a href="${escape(item.url)}">${picture}</a>` : picture;
  return `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 8px"><tr>
${linked ? `<td style="padding:0 16px 0 0;vertical-align:top">${linked}</td>` : ''}<td style="vertical-align:top">
<p style="margin:0;font-weight:600">${escape(item.title)}</p>
${item.variant ? `<p style="margin:2px 0 0;color:#5f5d57">${escape(item.variant)}</p>` : ''}
${item.price ? `<p style="margin:8px 0 0;font-weight:600">${escape(item.price)}</p>` : ''}
</td></tr></table>`;
}

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
      return {
        subject: fill(t.newsletterConfirmSubject, v),
        intro: fill(t.newsletterConfirmIntro, v),
        action: { label: t.confirmAction, url: m.links.confirm! },
        hint: fill(t.confirmHint, v),
      };
    case 'stock_confirmation':
      return {
        subject: fill(t.stockConfirmSubject, v),
        intro: fill(t.stockConfirmIntro, v),
        action: { label: t.confirmAction, url: m.links.confirm! },
        hint: fill(t.confirmHint, v),
      };
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
 * colours. No tracking: every link goes to the shop and carries nothing but a token (or the
 * market and language a product page is shown in). The one picture, the product's in a
 * back-in-stock mail, is the shop's own at the same address for every recipient.
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
    ...(p.item ? [p.item.title, ...(p.item.variant ? [p.item.variant] : []), ...(p.item.price ? [p.item.price] : []), ''] : []),
    ...(p.action ? [`${p.action.label}: ${p.action.url}`, ''] : []),
    p.hint,
    '',
    '-- ', // the signature separator mail programs recognise
    footer,
    ...(sender ? [sender] : []),
    `${t.unsubscribeText} ${t.unsubscribeAction}: ${m.links.unsubscribe}`,
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
${p.item ? itemHtml(p.item) : ''}
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
