'use client';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Suggestion } from '../shop-api/search/route';
import type { SearchBoxStrings } from '../_lib/i18n/islands';

/** Wait this long after the last keystroke before asking. */
const DEBOUNCE_MS = 200;
/** Fewer characters suggest too much to be useful. */
const MIN_CHARS = 2;
const LISTBOX = 'site-search-suggestions';
const optionId = (i: number) => `${LISTBOX}-${i}`;

/**
 * The header's search box: a plain GET form to /search (so it works without JavaScript),
 * enhanced into a WAI-ARIA combobox whose listbox suggests products as the shopper types.
 * Suggestions come from the shop's own /shop-api/search (the credential stays on the
 * server), debounced, and a newer keystroke aborts the request still in flight.
 */
export function SearchBox({ t }: { t: SearchBoxStrings }) {
  const [text, setText] = useState('');
  const [found, setFound] = useState<{ q: string; items: Suggestion[] } | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const inflight = useRef<AbortController | null>(null);

  useEffect(() => {
    const q = text.trim();
    // Suggestions show only for the text they were found for, so old ones need no clearing.
    if (q.length < MIN_CHARS) {
      inflight.current?.abort();
      return;
    }
    const timer = setTimeout(() => {
      inflight.current?.abort();
      const controller = new AbortController();
      inflight.current = controller;
      fetch(`/shop-api/search?${new URLSearchParams({ q })}`, { signal: controller.signal, headers: { Accept: 'application/json' } })
        .then((res) => (res.ok ? (res.json() as Promise<{ data: Suggestion[] }>) : { data: [] }))
        .then(({ data }) => {
          if (controller.signal.aborted) return;
          setFound({ q, items: data });
          setActive(-1);
        })
        .catch(() => {
          // Aborted by a newer keystroke, or the network failed: the form still searches.
        });
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  useEffect(() => () => inflight.current?.abort(), []);

  const answered = found !== null && found.q === text.trim();
  const items = answered ? found.items : [];
  // Expanded only with something to show; "no matches" is said by the status line alone.
  const expanded = open && items.length > 0;

  function go(item: Suggestion) {
    setOpen(false);
    // Product pages have a root layout of their own: a full page load either way.
    window.location.assign(item.href);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (items.length === 0) return;
      event.preventDefault();
      setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      // -1 is the text itself: past either end the choice goes back to it, as in the APG's combobox.
      setActive((i) => {
        const next = i + step;
        if (next >= items.length) return -1;
        return next < -1 ? items.length - 1 : next;
      });
    } else if (event.key === 'Enter' && expanded && active >= 0 && items[active]) {
      event.preventDefault();
      go(items[active]);
    } else if (event.key === 'Escape') {
      if (expanded) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      } else if (text) {
        setText('');
      }
    }
  }

  return (
    <form className="search-box" role="search" method="get" action="/search">
      <label htmlFor="site-search" className="visually-hidden">
        {t.searchLabel}
      </label>
      <input
        id="site-search"
        name="q"
        type="search"
        value={text}
        placeholder={t.searchPlaceholder}
        autoComplete="off"
        maxLength={200}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={LISTBOX}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
      />
      <button type="submit">{t.search}</button>
      <ul id={LISTBOX} role="listbox" aria-label={t.searchSuggestions} className="search-suggestions" hidden={!expanded}>
        {items.map((item, i) => (
          <li
            key={item.handle}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            // Before the input's blur closes the list.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => go(item)}
          >
            {/* eslint-disable-next-line @next/next/no-img-element -- the seed's SVGs need no optimiser */}
            {item.image ? <img src={item.image.url} alt="" width={48} height={48} /> : <span className="no-image" />}
            <span className="suggestion-title">{item.title}</span>
            <span className="suggestion-price">{item.price}</span>
          </li>
        ))}
      </ul>
      <p className="visually-hidden" role="status">
        {open && answered
          ? items.length > 0
            ? t.searchSuggestionCount.replace('{count}', String(items.length))
            : t.searchNoSuggestions
          : ''}
      </p>
    </form>
  );
}
