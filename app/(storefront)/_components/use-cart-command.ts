'use client';
import { useRef, useState, type FormEvent } from 'react';
import type { CartCommandResult } from '../_lib/cart-commands';
import { setCartCount } from './cart-count';

export type CartCommandState = CartCommandResult | { status: 'idle' };

async function post(endpoint: string, body: URLSearchParams): Promise<CartCommandResult> {
  const res = await fetch(endpoint, { method: 'POST', body, headers: { Accept: 'application/json' }, cache: 'no-store' });
  if (res.status !== 200 && res.status !== 422) throw new Error(`cart ${res.status}`);
  return (await res.json()) as CartCommandResult;
}

/**
 * An "add to the cart" form posted to the shop's own endpoint (../_lib/cart-command-route.ts)
 * by script: the page stays as it is, whatever happened to the catalog meanwhile, and shows
 * the answer; the header's count is the one the endpoint answered. The form keeps its
 * `action` and `method`, so it still works without JavaScript.
 */
export function useCartCommand(endpoint: string, tryAgainLater: string) {
  const [state, setState] = useState<CartCommandState>({ status: 'idle' });
  const [pending, setPending] = useState(false);
  // A second submit before React re-renders with `pending` must not post again.
  const inFlight = useRef(false);

  async function send(body: URLSearchParams) {
    inFlight.current = true;
    setPending(true);
    try {
      const result = await post(endpoint, body);
      if (result.status === 'added' && result.cartCount !== undefined) setCartCount(result.cartCount);
      setState(result);
    } catch {
      setState({ status: 'error', message: tryAgainLater, at: Date.now() });
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (inFlight.current) return;
    const body = new URLSearchParams();
    for (const [name, value] of new FormData(event.currentTarget)) if (typeof value === 'string') body.append(name, value);
    void send(body);
  }

  return { state, onSubmit, pending };
}
