'use client';
import { useActionState } from 'react';
import { confirmByButton, type ConfirmState } from '../_actions/confirm';
import type { ConfirmStrings } from '../_lib/i18n/islands';

const DONE = {
  newsletter: 'confirmedNewsletter',
  stock: 'confirmedStock',
  stockNotified: 'confirmedStockNotified',
  unsubscribed: 'confirmedUnsubscribed',
} as const;

/** The double opt-in button; without JavaScript the form posts and the page comes back with the outcome. */
export function ConfirmForm({ token, t }: { token: string; t: ConfirmStrings }) {
  const [state, formAction, pending] = useActionState<ConfirmState, FormData>(confirmByButton, { status: 'idle' });
  if (state.status === 'done') {
    const tone = state.outcome === 'unsubscribed' ? 'info' : 'success';
    return (
      <p className={`notice notice-${tone}`} role="status">
        {t[DONE[state.outcome]]}
      </p>
    );
  }
  if (state.status === 'error' && state.reason !== 'refused') {
    return (
      <p className="notice notice-error" role="alert">
        {state.reason === 'expired' ? t.linkExpired : t.linkInvalid}
      </p>
    );
  }
  return (
    <form action={formAction}>
      <p>{t.confirmText}</p>
      <input type="hidden" name="token" value={token} />
      {state.status === 'error' ? (
        <p className="notice notice-error" role="alert">
          {state.message}
        </p>
      ) : null}
      <button className="btn btn-primary mt-14" type="submit" disabled={pending}>
        {pending ? t.confirming : t.confirmButton}
      </button>
    </form>
  );
}
