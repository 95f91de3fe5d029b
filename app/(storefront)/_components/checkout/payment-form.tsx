'use client';
import { useActionState } from 'react';
import { startPayment, type StepState } from '../../_actions/checkout';
import type { CheckoutStrings } from '../../_lib/i18n/islands';

export function PaymentForm({ sessionId, ready, t }: { sessionId: string; ready: boolean; t: CheckoutStrings }) {
  const [state, action, pending] = useActionState<StepState, FormData>(startPayment, { status: 'idle' });
  return (
    <form action={action}>
      <input type="hidden" name="sessionId" value={sessionId} />
      <p className="muted">{t.paymentHint}</p>
      <div aria-live="polite">
        {state.status === 'error' && !pending ? (
          <p className="notice notice-error" role="alert">
            {state.message}
          </p>
        ) : null}
      </div>
      <button className="btn btn-primary btn-block" type="submit" disabled={!ready || pending}>
        {pending ? t.saving : t.placeOrder}
      </button>
    </form>
  );
}
