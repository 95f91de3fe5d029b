'use client';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import type { CartCommandResult } from '../_lib/cart-commands';
import { CART_COUNT_QUERY } from './cart-link';
import { useT } from './i18n-context';

export type CartCommandState = CartCommandResult | { status: 'idle' };

async function post(endpoint: string, body: URLSearchParams): Promise<CartCommandResult> {
  const res = await fetch(endpoint, { method: 'POST', body, headers: { Accept: 'application/json' }, cache: 'no-store' });
  if (res.status !== 200 && res.status !== 422) throw new Error(`cart ${res.status}`);
  return (await res.json()) as CartCommandResult;
}

/**
 * An "add to the cart" form posted to the shop's own endpoint (./_lib/cart-command-route.ts)
 * by script: the page stays as it is, whatever happened to the catalog meanwhile, and shows
 * the answer; the header's count is the one the endpoint answered. The form keeps its
 * `action` and `method`, so it still works without JavaScript.
 */
export function useCartCommand(endpoint: string) {
  const t = useT();
  const client = useQueryClient();
  const mutation = useMutation({
    mutationFn: (body: URLSearchParams) => post(endpoint, body),
    onSuccess: async (result) => {
      if (result.status !== 'added' || result.cartCount === undefined) return;
      // A count asked for before this add (a cached page asks once it has hydrated) may
      // still be on its way on a busy server: it would land after this newer count and
      // show the cart as it was — until the count went stale, 15 s later. Drop it first.
      await client.cancelQueries({ queryKey: CART_COUNT_QUERY });
      client.setQueryData(CART_COUNT_QUERY, result.cartCount);
    },
  });

  const state: CartCommandState = mutation.isError
    ? { status: 'error', message: t.tryAgainLater, at: mutation.submittedAt }
    : (mutation.data ?? { status: 'idle' });

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mutation.isPending) return;
    const body = new URLSearchParams();
    for (const [name, value] of new FormData(event.currentTarget)) if (typeof value === 'string') body.append(name, value);
    mutation.mutate(body);
  }

  return { state, onSubmit, pending: mutation.isPending };
}
