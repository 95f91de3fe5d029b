'use client';
import { useActionState } from 'react';
import { unsubscribe, type UnsubscribeState } from '../_actions/unsubscribe';
import type { UnsubscribeStrings } from '../_lib/i18n/islands';

export function UnsubscribeForm({ token, t }: { token: string; t: UnsubscribeStrings }) {
  const [state, formAction, pending] = useActionState<UnsubscribeState, FormData>(unsubscribe, { status: 'idle' });
  if (state.status === 'done') {
    return (
      <p className="notice notice-success" role="status">
        {state.kind === 'stock' ? t.unsubscribedStock : t.unsubscribedNewsletter}
      </p>
    );
  }
  return (
    <form action={formAction}>
      <p>{t.unsubscribeText}</p>
      <input type="hidden" name="token" value={token} />
      {state.status === 'error' ? (
        <p className="notice notice-error" role="alert">
          {state.invalid ? t.linkInvalid : t.tryAgainLater}
        </p>
      ) : null}
      <button className="btn btn-primary mt-14" type="submit" disabled={pending}>
        {pending ? t.unsubscribing : t.unsubscribeButton}
      </button>
    </form>
  );
}
