'use client';
import { useActionState, useId } from 'react';
import { chooseDelivery, type StepState } from '../../_actions/checkout';
import type { CheckoutStrings } from '../../_lib/i18n/islands';

export type DeliveryOptionView = {
  id: string;
  kind: 'delivery' | 'pickup';
  title: string;
  carrier: string;
  price: string;
  days: string;
  detail: string | null;
};

export function DeliveryForm({
  sessionId,
  options,
  selected,
  t,
}: {
  sessionId: string;
  options: DeliveryOptionView[];
  selected: string | null;
  t: CheckoutStrings;
}) {
  const id = useId();
  const [state, action, pending] = useActionState<StepState, FormData>(chooseDelivery, { status: 'idle' });
  const groups = [
    { kind: 'delivery' as const, legend: t.homeDelivery },
    { kind: 'pickup' as const, legend: t.pickupPoint },
  ].filter((g) => options.some((o) => o.kind === g.kind));
  return (
    <form action={action}>
      <input type="hidden" name="sessionId" value={sessionId} />
      {groups.map((group) => (
        <fieldset className="options-list" key={group.kind}>
          <legend>{group.legend}</legend>
          {options
            .filter((o) => o.kind === group.kind)
            .map((o) => (
              <label className="option-card" key={o.id} htmlFor={`${id}-${o.id}`}>
                <input id={`${id}-${o.id}`} type="radio" name="option" value={o.id} defaultChecked={o.id === selected} required />
                <span>
                  <strong>{o.title}</strong>
                  <small>
                    {o.carrier} · {o.days}
                  </small>
                  {o.detail ? <small>{o.detail}</small> : null}
                </span>
                <span className="price">{o.price}</span>
              </label>
            ))}
        </fieldset>
      ))}
      <div aria-live="polite">{state.status === 'error' && !pending ? <p className="notice notice-error">{state.message}</p> : null}</div>
      <button className="btn btn-secondary" type="submit" disabled={pending}>
        {pending ? t.saving : t.chooseDelivery}
      </button>
    </form>
  );
}
