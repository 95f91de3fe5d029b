/**
 * The words of the shop's mails in the storefront's three languages. `{shop}`, `{product}`
 * and `{days}` are filled in; every language has every key (the type says so).
 * `unsubscribeText` is the question only: the link's own words (`unsubscribeAction`) follow
 * it, so no label is said twice ("Avsluta: Avsluta prenumerationen").
 */
const en = {
  newsletterConfirmSubject: 'Confirm your subscription to the {shop} newsletter',
  newsletterConfirmIntro:
    'You (or someone using your address) asked to receive the {shop} newsletter: new arrivals and the occasional story from the workshop, about once a month.',
  stockConfirmSubject: 'Confirm your back-in-stock alert for {product}',
  stockConfirmIntro: 'You (or someone using your address) asked {shop} to send one e-mail when {product} is back in stock.',
  confirmAction: 'Confirm',
  confirmHint:
    'Nothing is sent until you confirm. The link works for {days} days; if you did not ask for this, ignore this e-mail and nothing more will come.',
  backInStockSubject: '{product} is back in stock',
  backInStockIntro: 'Good news: {product} is back in stock at {shop}. This is the one e-mail you asked for; your alert has now ended.',
  backInStockAction: 'See it in the shop',
  backInStockHint: 'Stock can run out quickly, so we cannot hold it for you.',
  unsubscribeText: 'Don’t want these e-mails?',
  unsubscribeAction: 'Unsubscribe',
  footer: 'You get this e-mail because of a signup at {shop}.',
} as const;

type MailTexts = { [K in keyof typeof en]: string };

const sv: MailTexts = {
  newsletterConfirmSubject: 'Bekräfta din prenumeration på nyhetsbrevet från {shop}',
  newsletterConfirmIntro:
    'Du (eller någon som använt din adress) har bett om nyhetsbrevet från {shop}: nyheter och en och annan berättelse från verkstaden, ungefär en gång i månaden.',
  stockConfirmSubject: 'Bekräfta din bevakning av {product}',
  stockConfirmIntro: 'Du (eller någon som använt din adress) har bett {shop} att skicka ett mejl när {product} finns i lager igen.',
  confirmAction: 'Bekräfta',
  confirmHint:
    'Inget skickas förrän du har bekräftat. Länken gäller i {days} dagar; har du inte bett om detta kan du strunta i mejlet, så kommer inget mer.',
  backInStockSubject: '{product} finns i lager igen',
  backInStockIntro:
    'Goda nyheter: {product} finns i lager igen hos {shop}. Det här är det enda mejlet du bad om; din bevakning är nu avslutad.',
  backInStockAction: 'Se den i butiken',
  backInStockHint: 'Lagret kan ta slut fort, så vi kan inte reservera den åt dig.',
  unsubscribeText: 'Vill du inte ha de här mejlen?',
  unsubscribeAction: 'Avsluta prenumerationen',
  footer: 'Du får det här mejlet på grund av en anmälan hos {shop}.',
};

const de: MailTexts = {
  newsletterConfirmSubject: 'Bitte bestätigen Sie Ihr Abonnement des {shop}-Newsletters',
  newsletterConfirmIntro:
    'Sie (oder jemand mit Ihrer Adresse) möchten den Newsletter von {shop} erhalten: Neuheiten und ab und zu eine Geschichte aus der Werkstatt, etwa einmal im Monat.',
  stockConfirmSubject: 'Bitte bestätigen Sie Ihre Benachrichtigung für {product}',
  stockConfirmIntro:
    'Sie (oder jemand mit Ihrer Adresse) haben {shop} gebeten, eine E-Mail zu senden, sobald {product} wieder vorrätig ist.',
  confirmAction: 'Bestätigen',
  confirmHint:
    'Erst nach Ihrer Bestätigung senden wir etwas. Der Link gilt {days} Tage; wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail einfach, dann kommt nichts mehr.',
  backInStockSubject: '{product} ist wieder vorrätig',
  backInStockIntro:
    'Gute Nachricht: {product} ist bei {shop} wieder vorrätig. Das ist die eine E-Mail, um die Sie gebeten haben; Ihre Benachrichtigung ist damit beendet.',
  backInStockAction: 'Im Shop ansehen',
  backInStockHint: 'Der Vorrat kann schnell vergriffen sein; wir können nichts für Sie zurücklegen.',
  unsubscribeText: 'Sie möchten diese E-Mails nicht mehr?',
  unsubscribeAction: 'Abmelden',
  footer: 'Sie erhalten diese E-Mail wegen einer Anmeldung bei {shop}.',
};

export type MailLanguage = 'en' | 'sv' | 'de';
const TEXTS: Record<MailLanguage, MailTexts> = { en, sv, de };

/** sv-SE → sv, de-AT → de; anything else in English (as the storefront does). */
export function mailLanguage(locale: string): MailLanguage {
  const lang = locale.toLowerCase().split('-')[0];
  return lang === 'sv' || lang === 'de' ? lang : 'en';
}

export function mailTexts(locale: string): MailTexts {
  return TEXTS[mailLanguage(locale)];
}

export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in values ? String(values[name]) : match));
}
