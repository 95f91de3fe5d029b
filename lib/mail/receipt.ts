import type { OrderMail } from '@/lib/commerce/orders/receipt';
import { fill, mailLanguage, type MailLanguage } from './texts';
import { senderLine, type RenderedMail } from './render';

/** The words of the order mails; `{…}` are filled in. Every language has every key. */
const en = {
  subject: 'Your order {number} at {shop}',
  intro: 'Thank you for your order. We have received your payment and will send the parcel soon.',
  noticeSubject: 'New order {number}: {total}',
  noticeOversoldSubject: 'New order {number}: {total} — OVERSOLD, act now',
  noticeIntro: 'A new order was paid at {shop}.',
  noticeOversold: 'Oversold: the stock did not cover every line (marked below). Restock or refund the shopper.',
  oversoldLine: '{count} not in stock',
  orderNumber: 'Order number',
  placed: 'Placed',
  item: 'Item',
  quantity: 'Qty',
  price: 'Price',
  subtotal: 'Subtotal',
  shipping: 'Delivery',
  taxIncluded: 'Including VAT',
  tax: 'VAT',
  total: 'Total',
  deliveryTo: 'Delivery to',
  deliveryMethod: 'Delivery method',
  customer: 'Customer',
  footer: 'Questions about your order? Reply to this e-mail and quote {number}.',
  shopAt: '{shop} · {url}',
};
type ReceiptTexts = { [K in keyof typeof en]: string };

const sv: ReceiptTexts = {
  subject: 'Din order {number} hos {shop}',
  intro: 'Tack för din beställning. Vi har tagit emot din betalning och skickar paketet snart.',
  noticeSubject: 'Ny order {number}: {total}',
  noticeOversoldSubject: 'Ny order {number}: {total} — ÖVERSÅLD, åtgärda nu',
  noticeIntro: 'En ny order har betalats hos {shop}.',
  noticeOversold: 'Översåld: lagret räckte inte till alla rader (markerade nedan). Fyll på lagret eller återbetala kunden.',
  oversoldLine: '{count} saknas i lager',
  orderNumber: 'Ordernummer',
  placed: 'Lagd',
  item: 'Artikel',
  quantity: 'Antal',
  price: 'Pris',
  subtotal: 'Delsumma',
  shipping: 'Frakt',
  taxIncluded: 'Varav moms',
  tax: 'Moms',
  total: 'Totalt',
  deliveryTo: 'Leveransadress',
  deliveryMethod: 'Leveranssätt',
  customer: 'Kund',
  footer: 'Frågor om din order? Svara på det här mejlet och ange {number}.',
  shopAt: '{shop} · {url}',
};

const de: ReceiptTexts = {
  subject: 'Ihre Bestellung {number} bei {shop}',
  intro: 'Vielen Dank für Ihre Bestellung. Ihre Zahlung ist eingegangen; wir versenden das Paket in Kürze.',
  noticeSubject: 'Neue Bestellung {number}: {total}',
  noticeOversoldSubject: 'Neue Bestellung {number}: {total} — ÜBERVERKAUFT, bitte handeln',
  noticeIntro: 'Bei {shop} wurde eine neue Bestellung bezahlt.',
  noticeOversold: 'Überverkauft: Der Bestand reichte nicht für alle Positionen (unten markiert). Bestand auffüllen oder erstatten.',
  oversoldLine: '{count} nicht vorrätig',
  orderNumber: 'Bestellnummer',
  placed: 'Bestellt am',
  item: 'Artikel',
  quantity: 'Menge',
  price: 'Preis',
  subtotal: 'Zwischensumme',
  shipping: 'Versand',
  taxIncluded: 'Enthaltene MwSt.',
  tax: 'MwSt.',
  total: 'Gesamt',
  deliveryTo: 'Lieferadresse',
  deliveryMethod: 'Versandart',
  customer: 'Kunde',
  footer: 'Fragen zu Ihrer Bestellung? Antworten Sie auf diese E-Mail und nennen Sie {number}.',
  shopAt: '{shop} · {url}',
};

const TEXTS: Record<MailLanguage, ReceiptTexts> = { en, sv, de };

const escape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

function formatMoney(money: { amount: string; currency: string }, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: money.currency }).format(money.amount as `${number}`);
  } catch {
    return `${money.amount} ${money.currency}`;
  }
}

function addressLines(m: OrderMail): string[] {
  const a = m.shippingAddress;
  if (!a) return [];
  const town = a.country === 'US' ? `${a.city}, ${a.region ?? ''} ${a.postalCode}`.replace(/ {2,}/g, ' ') : `${a.postalCode} ${a.city}`;
  let country = a.country;
  try {
    country = new Intl.DisplayNames([m.locale], { type: 'region' }).of(a.country) ?? a.country;
  } catch {
    /* the code, then */
  }
  return [`${a.firstName} ${a.lastName}`, a.line1, a.line2, town, a.country === 'US' ? undefined : a.region, country].filter(
    (l): l is string => Boolean(l && l.trim()),
  );
}

/**
 * The receipt and the merchant's notice, plain text and HTML with the same content: order
 * number, each line with its picture, quantity and price as charged, the totals with the
 * VAT, where it goes and how, and the shop's name and web address.
 */
export function renderOrderMail(m: OrderMail): RenderedMail {
  const language = mailLanguage(m.locale);
  const t = TEXTS[language];
  const money = (x: { amount: string; currency: string }) => formatMoney(x, m.locale);
  const v = { number: m.number, shop: m.shopName, total: money(m.totals.total), url: m.shopUrl };
  const notice = m.kind === 'merchant_notice';
  const subject = notice ? fill(m.oversold ? t.noticeOversoldSubject : t.noticeSubject, v) : fill(t.subject, v);
  const intro = notice ? fill(t.noticeIntro, v) : t.intro;
  let placed: string;
  try {
    placed =
      new Intl.DateTimeFormat(m.locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(m.placedAt)) + ' UTC';
  } catch {
    placed = new Date(m.placedAt).toISOString();
  }
  const totals: [string, string][] = [
    [t.subtotal, money(m.totals.subtotal)],
    ...(m.totals.shipping ? [[t.shipping, money(m.totals.shipping)] as [string, string]] : []),
    [m.totals.taxInclusive ? t.taxIncluded : t.tax, money(m.totals.tax)],
    [t.total, money(m.totals.total)],
  ];
  const address = addressLines(m);
  const delivery = m.delivery
    ? `${m.delivery.title} (${m.delivery.carrier})${m.deliveryPrice ? ` · ${money(m.deliveryPrice)}` : ''}`
    : null;
  const short = (count: number) => fill(t.oversoldLine, { count });
  const sender = senderLine(m);

  const text = [
    m.shopName,
    '',
    intro,
    ...(notice && m.oversold ? ['', t.noticeOversold] : []),
    '',
    `${t.orderNumber}: ${m.number}`,
    `${t.placed}: ${placed}`,
    ...(notice && m.email ? [`${t.customer}: ${m.email}`] : []),
    '',
    ...m.lines.map(
      (l) =>
        `${l.quantity} × ${l.title}${notice && l.sku ? ` [${l.sku}]` : ''} — ${money(l.total)}${l.oversoldQuantity > 0 && notice ? ` (${short(l.oversoldQuantity)})` : ''}`,
    ),
    '',
    ...totals.map(([label, value]) => `${label}: ${value}`),
    ...(address.length ? ['', `${t.deliveryTo}:`, ...address] : []),
    ...(delivery ? ['', `${t.deliveryMethod}: ${delivery}`] : []),
    '',
    '-- ',
    fill(t.footer, v),
    fill(t.shopAt, v),
    ...(sender ? [sender] : []),
    '',
  ].join('\n');

  const cell = 'padding:8px 0;border-bottom:1px solid #e2ddd4;vertical-align:middle';
  const rows = m.lines
    .map(
      (l) => `<tr>
<td style="${cell};width:64px">${l.imageUrl ? `<img src="${escape(l.imageUrl)}" alt="" width="56" height="56" style="display:block;border-radius:6px;background:#f2eee8">` : ''}</td>
<td style="${cell}">${escape(l.title)}${notice && l.sku ? ` <span style="color:#5f5d57">[${escape(l.sku)}]</span>` : ''}<br><span style="color:#5f5d57;font-size:14px">${l.quantity} × ${escape(money(l.unitPrice))}</span>${notice && l.oversoldQuantity > 0 ? `<br><strong style="color:#a4322a">${escape(short(l.oversoldQuantity))}</strong>` : ''}</td>
<td style="${cell};text-align:right;white-space:nowrap">${escape(money(l.total))}</td>
</tr>`,
    )
    .join('\n');
  const totalRows = totals
    .map(
      ([label, value], i) =>
        `<tr><td style="padding:4px 0${i === totals.length - 1 ? ';font-weight:700' : ''}">${escape(label)}</td><td style="padding:4px 0;text-align:right${i === totals.length - 1 ? ';font-weight:700' : ''}">${escape(value)}</td></tr>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html lang="${escape(m.locale)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(subject)}</title></head>
<body style="margin:0;padding:0;background:#faf8f5;color:#1f1e1c;font:16px/1.55 ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#faf8f5"><tr><td align="center" style="padding:32px 16px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border:1px solid #e2ddd4;border-radius:10px">
<tr><td style="padding:28px 32px">
<p style="margin:0 0 20px;font-family:'Iowan Old Style','Palatino Linotype',Palatino,Georgia,serif;font-size:22px;font-weight:600"><a href="${escape(m.shopUrl)}" style="color:#1f1e1c;text-decoration:none">${escape(m.shopName)}</a></p>
<p style="margin:0 0 16px">${escape(intro)}</p>
${notice && m.oversold ? `<p style="margin:0 0 16px;padding:12px;background:#fbeae8;color:#a4322a;border-radius:6px"><strong>${escape(t.noticeOversold)}</strong></p>` : ''}
<p style="margin:0 0 4px"><span style="color:#5f5d57">${escape(t.orderNumber)}:</span> <strong>${escape(m.number)}</strong></p>
<p style="margin:0 0 16px;color:#5f5d57;font-size:14px">${escape(t.placed)}: ${escape(placed)}${notice && m.email ? ` · ${escape(t.customer)}: ${escape(m.email)}` : ''}</p>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0">
${rows}
</table>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin-top:12px">
${totalRows}
</table>
${address.length ? `<p style="margin:20px 0 4px;font-weight:600">${escape(t.deliveryTo)}</p><p style="margin:0">${address.map(escape).join('<br>')}</p>` : ''}
${delivery ? `<p style="margin:12px 0 0"><span style="color:#5f5d57">${escape(t.deliveryMethod)}:</span> ${escape(delivery)}</p>` : ''}
</td></tr></table>
<p style="max-width:600px;margin:16px auto 0;color:#5f5d57;font-size:13px">${escape(fill(t.footer, v))}<br><a href="${escape(m.shopUrl)}" style="color:#2f5d50">${escape(fill(t.shopAt, v))}</a>${sender ? `<br>${escape(sender)}` : ''}</p>
</td></tr></table>
</body>
</html>
`;
  return { subject, text, html, language };
}
