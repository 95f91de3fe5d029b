'use client';
import { useActionState, useId } from 'react';
import type { SignupState } from '../_actions/signups';
import type { SignupStrings } from '../_lib/i18n/islands';
import { keepValuesOnSubmit } from './use-keep-form';

type Props = {
  action: (state: SignupState, form: FormData) => Promise<SignupState>;
  consentText: string;
  submitLabel: string;
  doneText: string;
  hidden?: Record<string, string>;
  compact?: boolean;
  t: SignupStrings;
};

/** E-mail + its own consent checkbox and text; errors are shown at the field they concern. */
export function SignupForm({ action, consentText, submitLabel, doneText, hidden = {}, compact = false, t }: Props) {
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  const id = useId();
  const emailError = state.fieldErrors?.email;
  const consentError = state.fieldErrors?.consent;

  if (state.status === 'done') {
    return (
      <p className="notice notice-success" role="status">
        {doneText}
      </p>
    );
  }
  return (
    <form action={formAction} onSubmit={keepValuesOnSubmit(formAction)} noValidate>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <input type="hidden" name="consentText" value={consentText} />
      <div className={compact ? 'newsletter-row' : 'stack'}>
        <div className="field">
          <label htmlFor={`${id}-email`}>{t.email}</label>
          <input
            id={`${id}-email`}
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={state.values?.email}
            aria-invalid={emailError ? true : undefined}
            aria-describedby={emailError ? `${id}-email-error` : undefined}
          />
        </div>
        {compact ? (
          <button className="btn btn-primary" type="submit" disabled={pending}>
            {pending ? t.sending : submitLabel}
          </button>
        ) : null}
      </div>
      {emailError ? (
        <p className="field-error" id={`${id}-email-error`}>
          {emailError}
        </p>
      ) : null}
      <div className="checkbox mt-12">
        <input
          id={`${id}-consent`}
          name="consent"
          type="checkbox"
          required
          defaultChecked={state.values?.consent}
          aria-invalid={consentError ? true : undefined}
          aria-describedby={consentError ? `${id}-consent-error` : undefined}
        />
        <label htmlFor={`${id}-consent`}>{consentText}</label>
      </div>
      {consentError ? (
        <p className="field-error" id={`${id}-consent-error`}>
          {consentError}
        </p>
      ) : null}
      {state.message ? (
        <p className="notice notice-error mt-12" role="alert">
          {state.message}
        </p>
      ) : null}
      {compact ? null : (
        <button className="btn btn-primary mt-14" type="submit" disabled={pending}>
          {pending ? t.sending : submitLabel}
        </button>
      )}
    </form>
  );
}
