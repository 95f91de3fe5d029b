'use client';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import type { AddressSuggestion } from '@/lib/contract/checkout';
import type { CheckoutStrings } from '../../_lib/i18n/islands';
import { QueryIsland } from '../query-island';

type Props = {
  sessionId: string;
  defaultValue: string;
  inputRef: RefObject<HTMLInputElement | null>;
  onPick: (suggestion: AddressSuggestion) => void;
  error?: string;
  t: Pick<CheckoutStrings, 'line1' | 'suggestions' | 'suggestionsHint'>;
};

function useDebounced<T>(value: T, ms: number): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return current;
}

async function suggest(sessionId: string, q: string): Promise<AddressSuggestion[]> {
  const res = await fetch(`/shop-api/checkout/${encodeURIComponent(sessionId)}/address-suggestions?q=${encodeURIComponent(q)}`);
  if (!res.ok) return [];
  return ((await res.json()) as { data: AddressSuggestion[] }).data;
}

/**
 * Street address with suggestions as you type (ARIA 1.2 combobox): debounced, fetched
 * through the shop's server; arrow keys move, Enter picks, Escape closes. React Query keeps
 * answers per query (typing back shows them at once) and shows only the answer to what is
 * typed now; its client lives in this island only.
 */
export function AddressLineField(props: Props) {
  return (
    <QueryIsland>
      <AddressLine {...props} />
    </QueryIsland>
  );
}

function AddressLine({ sessionId, defaultValue, inputRef, onPick, error, t }: Props) {
  const id = useId();
  const listId = `${id}-list`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [value, setValue] = useState(defaultValue);
  const q = useDebounced(value.trim(), 250);
  const mounted = useRef(false);
  // The field is uncontrolled so nothing typed before the page's script ran is lost; pick
  // that text up once it runs, and offer suggestions if the shopper is still in the field.
  useEffect(() => {
    if (mounted.current || !inputRef.current) return;
    mounted.current = true;
    const typed = inputRef.current.value;
    if (typed !== defaultValue) {
      setValue(typed);
      setOpen(document.activeElement === inputRef.current);
    }
  }, [defaultValue, inputRef]);
  const { data: items = [] } = useQuery({
    queryKey: ['address-suggestions', sessionId, q],
    queryFn: () => suggest(sessionId, q),
    enabled: open && q.length >= 3 && q.length <= 100,
    staleTime: 60_000,
  });
  const expanded = open && items.length > 0;

  function pick(suggestion: AddressSuggestion) {
    onPick(suggestion);
    setValue(suggestion.address.line1);
    setOpen(false);
    setActive(-1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' && items.length) {
      event.preventDefault();
      setOpen(true);
      setActive((a) => (a + 1) % items.length);
    } else if (event.key === 'ArrowUp' && items.length) {
      event.preventDefault();
      setActive((a) => (a <= 0 ? items.length - 1 : a - 1));
    } else if (event.key === 'Enter' && expanded && active >= 0 && items[active]) {
      event.preventDefault();
      pick(items[active]);
    } else if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      setOpen(false);
    }
  }

  return (
    <div className="field span-2">
      <label htmlFor={`${id}-input`}>{t.line1}</label>
      <div className="combobox">
        <input
          id={`${id}-input`}
          name="line1"
          type="text"
          autoComplete="address-line1"
          required
          maxLength={200}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 ? `${listId}-${active}` : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          aria-invalid={error ? true : undefined}
          ref={inputRef}
          defaultValue={defaultValue}
          onChange={(e) => {
            setValue(e.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setOpen(false)}
        />
        <ul role="listbox" id={listId} aria-label={t.suggestions} hidden={!expanded}>
          {items.map((s, i) => (
            <li
              key={s.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              // mousedown, not click: it runs before the input's blur closes the list
              onMouseDown={(e) => {
                e.preventDefault();
                pick(s);
              }}
            >
              {s.label}
            </li>
          ))}
        </ul>
      </div>
      <p className="muted m-0 text-small" id={`${id}-hint`}>
        {t.suggestionsHint}
      </p>
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
