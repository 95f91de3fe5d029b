'use client';
import { useActionState, useId, useRef, useState, startTransition } from 'react';
import type { Address, AddressSuggestion } from '@/lib/contract/checkout';
import { changeSessionCountry, saveContact, type ContactState, type CountryState } from '../../_actions/checkout';
import type { CheckoutStrings } from '../../_lib/i18n/islands';
import { keepValuesOnSubmit } from '../use-keep-form';
import { AddressLineField } from './address-line-field';

type Props = {
  sessionId: string;
  etag: string | null;
  email: string | null;
  phone: string | null;
  address: Address | null;
  country: string;
  countries: { code: string; label: string }[];
  t: CheckoutStrings;
};

/** Contact + shipping address; the country select re-prices the session on change. */
export function ContactForm({ sessionId, etag, email, phone, address, country, countries, t }: Props) {
  const id = useId();
  const [answered, formAction, saving] = useActionState<ContactState, FormData>(saveContact, { status: 'idle' });
  // What the last save said stops applying once another country is picked: the fields are
  // judged again, in the language of the market the session moved to, at the next save.
  const [outdated, setOutdated] = useState<ContactState | null>(null);
  const state: ContactState = answered === outdated ? { status: 'idle' } : answered;
  const [quote, countryAction, moving] = useActionState<CountryState, FormData>(changeSessionCountry, { status: 'idle' });
  // Uncontrolled fields keep whatever the shopper typed, even before the script loaded;
  // a picked suggestion is written into them directly.
  const line1 = useRef<HTMLInputElement>(null);
  const postalCode = useRef<HTMLInputElement>(null);
  const city = useRef<HTMLInputElement>(null);
  const region = useRef<HTMLInputElement>(null);
  const [selectedCountry, setSelectedCountry] = useState(country);
  const errors = state.status === 'error' ? (state.fieldErrors ?? {}) : {};
  // After a refused save, what the shopper sent (without JavaScript the page is drawn anew);
  // otherwise what the session holds.
  const sent = state.status === 'error' ? state.values : undefined;
  const initial = (name: string, stored: string | null | undefined) => sent?.[name] ?? stored ?? '';

  function onCountry(next: string) {
    setSelectedCountry(next);
    setOutdated(answered);
    const form = new FormData();
    form.set('sessionId', sessionId);
    form.set('country', next);
    startTransition(() => countryAction(form));
  }

  function onPick(s: AddressSuggestion) {
    if (line1.current) line1.current.value = s.address.line1;
    if (postalCode.current) postalCode.current.value = s.address.postalCode;
    if (city.current) city.current.value = s.address.city;
    if (region.current && s.address.region) region.current.value = s.address.region;
  }

  const field = (
    name: string,
    label: string,
    props: React.InputHTMLAttributes<HTMLInputElement> & { ref?: React.Ref<HTMLInputElement> },
    wide = false,
  ) => (
    <div className={`field${wide ? ' span-2' : ''}`}>
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input
        id={`${id}-${name}`}
        name={name}
        {...props}
        aria-invalid={errors[name] ? true : undefined}
        aria-describedby={errors[name] ? `${id}-${name}-error` : undefined}
      />
      {errors[name] ? (
        <p className="field-error" id={`${id}-${name}-error`}>
          {errors[name]}
        </p>
      ) : null}
    </div>
  );

  return (
    <form action={formAction} onSubmit={keepValuesOnSubmit(formAction)} noValidate aria-describedby={`${id}-status`}>
      <input type="hidden" name="sessionId" value={sessionId} />
      <input type="hidden" name="etag" value={etag ?? ''} />
      <div className="form-grid">
        {field(
          'email',
          t.email,
          { type: 'email', autoComplete: 'email', required: true, defaultValue: initial('email', email), maxLength: 254 },
          true,
        )}
        {field('phone', t.phone, { type: 'tel', autoComplete: 'tel', defaultValue: initial('phone', phone), maxLength: 40 }, true)}
        <div className="field span-2">
          <label htmlFor={`${id}-country`}>{t.country}</label>
          <select
            id={`${id}-country`}
            name="country"
            autoComplete="country"
            value={selectedCountry}
            onChange={(e) => onCountry(e.target.value)}
            aria-invalid={errors.country ? true : undefined}
            aria-describedby={errors.country ? `${id}-country-error` : undefined}
          >
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.label}
              </option>
            ))}
          </select>
          {errors.country ? (
            <p className="field-error" id={`${id}-country-error`}>
              {errors.country}
            </p>
          ) : null}
        </div>
        <div className="span-2" aria-live="polite">
          {quote.status === 'changed' && !moving ? (
            <div className="notice notice-info" key={quote.at}>
              <p>{quote.message}</p>
              {quote.warnings?.map((w) => (
                <p key={w}>{w}</p>
              ))}
            </div>
          ) : null}
          {quote.status === 'error' && !moving ? <p className="notice notice-error">{quote.message}</p> : null}
        </div>
        {field('firstName', t.firstName, {
          autoComplete: 'given-name',
          required: true,
          defaultValue: initial('firstName', address?.firstName),
          maxLength: 100,
        })}
        {field('lastName', t.lastName, {
          autoComplete: 'family-name',
          required: true,
          defaultValue: initial('lastName', address?.lastName),
          maxLength: 100,
        })}
        <AddressLineField
          sessionId={sessionId}
          defaultValue={initial('line1', address?.line1)}
          inputRef={line1}
          onPick={onPick}
          error={errors.line1}
          t={t}
        />
        {field('line2', t.line2, { autoComplete: 'address-line2', defaultValue: initial('line2', address?.line2), maxLength: 200 }, true)}
        {field('postalCode', t.postalCode, {
          autoComplete: 'postal-code',
          required: true,
          ref: postalCode,
          defaultValue: initial('postalCode', address?.postalCode),
          maxLength: 20,
        })}
        {field('city', t.city, {
          autoComplete: 'address-level2',
          required: true,
          ref: city,
          defaultValue: initial('city', address?.city),
          maxLength: 100,
        })}
        {/* A US address names its state (the API requires it); other countries' addresses here have no region. */}
        {selectedCountry === 'US' ? (
          <div className="field">
            <label htmlFor={`${id}-region`}>{t.usState}</label>
            <input
              id={`${id}-region`}
              name="region"
              ref={region}
              autoComplete="address-level1"
              required
              maxLength={2}
              placeholder="NY"
              autoCapitalize="characters"
              defaultValue={initial('region', address?.region)}
              aria-invalid={errors.region ? true : undefined}
              aria-describedby={errors.region ? `${id}-region-error` : undefined}
            />
            {errors.region ? (
              <p className="field-error" id={`${id}-region-error`}>
                {errors.region}
              </p>
            ) : null}
          </div>
        ) : null}
      </div>
      <div id={`${id}-status`} aria-live="polite" className="mt-14">
        {state.status === 'error' && !saving ? (
          <p className="notice notice-error" role="alert">
            {state.message}
          </p>
        ) : null}
        {state.status === 'saved' && !saving ? <p className="notice notice-success">{t.saved}</p> : null}
      </div>
      <button className="btn btn-primary mt-14" type="submit" disabled={saving || moving}>
        {saving ? t.saving : t.saveAndContinue}
      </button>
    </form>
  );
}
