'use client';
import { useEffect, useRef } from 'react';

/**
 * The page a form is sent from (path and query), so its action can send the shopper back
 * to it. Filled when the form is sent, since the variant picker keeps changing the query.
 * Without JavaScript it stays empty and the action falls back to the Referer header.
 */
export function ReturnToInput() {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const input = ref.current;
    const form = input?.form;
    if (!input || !form) return;
    const update = () => {
      input.value = window.location.pathname + window.location.search;
    };
    update();
    // On the form itself: runs before React's own submit handling reads the form data.
    form.addEventListener('submit', update);
    return () => form.removeEventListener('submit', update);
  }, []);
  return <input ref={ref} type="hidden" name="returnTo" defaultValue="" />;
}
