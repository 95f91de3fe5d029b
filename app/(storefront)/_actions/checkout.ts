'use server';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { refresh } from 'next/cache';
import {
  SiteApiError,
  changeCountry,
  deliveryOptions,
  fetchCheckoutSession,
  fetchSite,
  preparePayment,
  updateCheckout,
} from '@/lib/site-client';
import { CART_COOKIE } from '../_lib/cart';
import { paymentKey } from '../_lib/checkout';
import { formatCountry, formatMoney } from '../_lib/format';
import { dictionary, fill, uiLanguage, type Dictionary } from '../_lib/i18n';
import { buyerIp, keepPreferences, shop } from '../_lib/shop';

const SESSION_ID = /^cs_[A-Za-z0-9]{1,80}$/;

export type ContactState = {
  status: 'idle' | 'saved' | 'error';
  message?: string;
  /** Field name (email, phone, firstName…) → what is wrong, from the API's JSON pointers. */
  fieldErrors?: Record<string, string>;
  /** What was sent, for a refused save: without JavaScript the page is drawn anew with it. */
  values?: Record<string, string>;
  at?: number;
};

/** The contact form's text fields, as a refused save gives them back. */
const CONTACT_FIELDS = ['email', 'phone', 'firstName', 'lastName', 'line1', 'line2', 'postalCode', 'city', 'region'] as const;

export type CountryState = { status: 'idle' | 'changed' | 'error'; message?: string; warnings?: string[]; at?: number };
export type StepState = { status: 'idle' | 'error'; message?: string; at?: number };

function sessionIdFrom(form: FormData): string {
  const id = String(form.get('sessionId') ?? '');
  if (!SESSION_ID.test(id)) throw new Error('bad session id');
  return id;
}

/** Maps the API's problems to what the shopper sees; unknown failures never show internals. */
async function problemState(error: unknown, id: string): Promise<{ message: string; fieldErrors?: Record<string, string> }> {
  const { t } = await shop();
  if (!(error instanceof SiteApiError)) return { message: t.tryAgainLater };
  if (error.code === 'session_expired') return { message: t.sessionExpired };
  if (error.code === 'session_not_open') redirect(`/checkout/${id}/confirmation`);
  if (error.code === 'precondition_failed') return { message: t.conflictRetry };
  const fieldErrors: Record<string, string> = {};
  for (const e of error.errors) {
    const field = /^\/(?:shippingAddress\/)?(\w+)/.exec(e.pointer)?.[1];
    if (field && !fieldErrors[field]) fieldErrors[field] = fieldMessage(t, field, e.code);
  }
  if (error.code === 'country_not_in_market') fieldErrors.country ??= t.fieldCountry;
  return Object.keys(fieldErrors).length ? { message: t.fixFields, fieldErrors } : { message: error.detail || t.tryAgainLater };
}

/**
 * What the shopper is told about a field the API refused, in their language: by the field
 * and the kind of problem (the API's details are English and written for developers).
 */
function fieldMessage(t: Dictionary, field: string, code: string): string {
  if (code === 'too_small') return t.fieldRequired;
  if (code === 'too_big') return t.fieldTooLong;
  if (field === 'email') return t.fieldEmail;
  if (field === 'postalCode') return t.fieldPostalCode;
  if (field === 'phone') return t.fieldPhone;
  if (field === 'region') return t.fieldRegion;
  if (field === 'country') return t.fieldCountry;
  return t.fieldCheck;
}

/**
 * Contact and shipping address. A country outside the session's market first moves the
 * session (change-country) so the address is accepted and the prices follow it.
 */
export async function saveContact(_: ContactState, form: FormData): Promise<ContactState> {
  const id = sessionIdFrom(form);
  const text = (name: string) => String(form.get(name) ?? '').trim();
  const line2 = text('line2');
  const region = text('region');
  const address = {
    firstName: text('firstName'),
    lastName: text('lastName'),
    line1: text('line1'),
    ...(line2 ? { line2 } : {}),
    postalCode: text('postalCode'),
    city: text('city'),
    ...(region ? { region } : {}),
    country: text('country').toUpperCase(),
  };
  const phone = text('phone');
  const ifMatch = text('etag') || undefined;
  try {
    const [{ session }, site] = await Promise.all([fetchCheckoutSession(id), fetchSite()]);
    const market = site.markets.find((m) => m.id === session.market);
    const country = address.country;
    let etag = ifMatch;
    if (country && market && !market.countries.includes(country) && site.markets.some((m) => m.countries.includes(country))) {
      const moved = await changeCountry(id, country, { buyerIp: await buyerIp() });
      await keepPreferences(moved.session.market, moved.session.locale);
      etag = undefined; // the session changed on purpose; the form's version is now stale by design
    }
    await updateCheckout(
      id,
      { email: text('email'), phone: phone || null, shippingAddress: address },
      { ifMatch: etag, buyerIp: await buyerIp() },
    );
  } catch (error) {
    // A stale form (the session changed elsewhere): show the current session and ask again.
    if (error instanceof SiteApiError && error.code === 'precondition_failed') refresh();
    const values = Object.fromEntries(CONTACT_FIELDS.map((name) => [name, String(form.get(name) ?? '').slice(0, 400)]));
    return { status: 'error', ...(await problemState(error, id)), values, at: Date.now() };
  }
  refresh();
  return { status: 'saved', at: Date.now() };
}

/** The country select: re-prices the session in the market serving that country. */
export async function changeSessionCountry(_: CountryState, form: FormData): Promise<CountryState> {
  const id = sessionIdFrom(form);
  const country = String(form.get('country') ?? '').toUpperCase();
  try {
    const { session, quote } = await changeCountry(id, country, { buyerIp: await buyerIp() });
    // The shop follows the session into its market and language: the page, its header and
    // the cart then show what the checkout charges, in the language its lines are written in.
    await keepPreferences(session.market, session.locale);
    const locale = session.locale;
    const t = dictionary(uiLanguage(locale));
    const titles = new Map(session.lines.map((l) => [l.variantId, l.title]));
    refresh();
    return {
      status: 'changed',
      message: fill(t.countryChanged, {
        country: formatCountry(country, locale),
        previous: formatMoney(quote.previousTotal, locale),
        total: formatMoney(quote.total, locale),
      }),
      warnings: quote.warnings.map((w) => fill(t.removedInCountry, { title: titles.get(w.variantId) ?? w.detail })),
      at: Date.now(),
    };
  } catch (error) {
    return { status: 'error', message: (await problemState(error, id)).message, at: Date.now() };
  }
}

export async function chooseDelivery(_: StepState, form: FormData): Promise<StepState> {
  const id = sessionIdFrom(form);
  const option = String(form.get('option') ?? '');
  if (!option) return { status: 'error', message: (await shop()).t.chooseDelivery, at: Date.now() };
  try {
    await deliveryOptions(id, { select: option }, { buyerIp: await buyerIp() });
  } catch (error) {
    return { status: 'error', message: (await problemState(error, id)).message, at: Date.now() };
  }
  refresh();
  return { status: 'idle' };
}

/** open → payment_pending with the sandbox provider; the cart is done once payment starts. */
export async function startPayment(_: StepState, form: FormData): Promise<StepState> {
  const id = sessionIdFrom(form);
  const { t } = await shop();
  let next: string;
  try {
    // One key per version of the session: a retry replays, a new attempt after a failed
    // payment (the session was reopened, so its version moved) prepares a new payment.
    const { etag } = await fetchCheckoutSession(id);
    const { payment } = await preparePayment(id, 'card', { idempotencyKey: paymentKey('prepare', id, etag), buyerIp: await buyerIp() });
    // A provider's hosted page, or the sandbox's demo page here.
    next = payment.redirectUrl ?? `/checkout/${id}/pay`;
  } catch (error) {
    if (error instanceof SiteApiError && error.code === 'session_incomplete') {
      const names: Record<string, string> = { email: t.email, shippingAddress: t.shippingAddress, deliveryOption: t.delivery };
      const missing = Array.isArray(error.problem.missing)
        ? (error.problem.missing as unknown[]).map((m) => names[String(m)] ?? String(m))
        : [];
      return { status: 'error', message: missing.length ? fill(t.missing, { fields: missing.join(', ') }) : error.detail, at: Date.now() };
    }
    return { status: 'error', message: (await problemState(error, id)).message, at: Date.now() };
  }
  (await cookies()).delete(CART_COOKIE);
  redirect(next);
}
