'use server';
import { createHash } from 'node:crypto';
import { SiteApiError, subscribeToNewsletter, subscribeToRestock } from '@/lib/site-client';
import { CONSENT_VERSION } from '../_lib/i18n';
import { consentTextFor } from '../_lib/i18n-consent';
import { refusalText } from '../_lib/refusal';
import { buyerIp, shop, type Shop } from '../_lib/shop';

export type SignupState = {
  status: 'idle' | 'done' | 'error';
  message?: string;
  fieldErrors?: { email?: string; consent?: string };
  /** What was sent, for a refused form: without JavaScript the page is drawn anew with it. */
  values?: { email: string; consent: boolean };
};

const VARIANT_ID = /^[A-Za-z0-9_-]{1,80}$/;

/** Footer newsletter signup: its own consent (never reused for anything else). */
export async function signUpForNewsletter(_: SignupState, form: FormData): Promise<SignupState> {
  return withValues(form, await newsletter(form));
}

/** Back-in-stock alert for one variant: a consent of its own, not a newsletter signup. */
export async function signUpForRestock(_: SignupState, form: FormData): Promise<SignupState> {
  return withValues(form, await restock(form));
}

function withValues(form: FormData, state: SignupState): SignupState {
  if (state.status !== 'error') return state;
  return { ...state, values: { email: String(form.get('email') ?? '').slice(0, 320), consent: form.get('consent') === 'on' } };
}

/** The shop, or the answer for a shopper it could not be read for (over their budget, say). */
async function shopOrRefusal(): Promise<Shop | SignupState> {
  try {
    return await shop();
  } catch (error) {
    return { status: 'error', message: await refusalText(error) };
  }
}

async function newsletter(form: FormData): Promise<SignupState> {
  const context = await shopOrRefusal();
  if ('status' in context) return context;
  const { t, lang, locale, market } = context;
  const email = String(form.get('email') ?? '').trim();
  if (form.get('consent') !== 'on') return { status: 'error', fieldErrors: { consent: t.consentRequired } };
  if (!email) return { status: 'error', fieldErrors: { email: t.invalidEmail } };
  const text = consentTextFor('newsletterConsent', form.get('consentText'), lang);
  const body = { email, consent: { granted: true as const, text, version: CONSENT_VERSION }, locale, market: market.id, source: 'footer' };
  const ip = await buyerIp();
  return submit(() => subscribeToNewsletter(body, { idempotencyKey: keyFor(body), buyerIp: ip }), t);
}

async function restock(form: FormData): Promise<SignupState> {
  const context = await shopOrRefusal();
  if ('status' in context) return context;
  const { t, lang, locale, market } = context;
  const email = String(form.get('email') ?? '').trim();
  const variantId = String(form.get('variantId') ?? '');
  if (!VARIANT_ID.test(variantId)) return { status: 'error', message: t.tryAgainLater };
  if (form.get('consent') !== 'on') return { status: 'error', fieldErrors: { consent: t.consentRequired } };
  if (!email) return { status: 'error', fieldErrors: { email: t.invalidEmail } };
  const text = consentTextFor('restockConsent', form.get('consentText'), lang);
  const body = { variantId, email, consent: { granted: true as const, text, version: CONSENT_VERSION }, locale, market: market.id };
  const ip = await buyerIp();
  return submit(() => subscribeToRestock(body, { idempotencyKey: keyFor(body), buyerIp: ip }), t);
}

async function submit(send: () => Promise<unknown>, t: Shop['t']): Promise<SignupState> {
  try {
    await send();
    return { status: 'done', message: undefined };
  } catch (error) {
    if (error instanceof SiteApiError) {
      if (error.code === 'consent_required') return { status: 'error', fieldErrors: { consent: t.consentRequired } };
      if (error.errors.some((e) => e.pointer === '/email')) return { status: 'error', fieldErrors: { email: t.invalidEmail } };
      if (error.code === 'rate_limited') return { status: 'error', message: await refusalText(error) };
    }
    return { status: 'error', message: t.tryAgainLater };
  }
}

/**
 * The key is the body's hash: a resubmitted form (retry, double click) replays the first
 * answer, a corrected address is a new request. A repeat signup is harmless anyway — the
 * API answers the same and stores nothing twice.
 */
function keyFor(body: unknown): string {
  return `signup-${createHash('sha256').update(JSON.stringify(body)).digest('base64url')}`;
}
