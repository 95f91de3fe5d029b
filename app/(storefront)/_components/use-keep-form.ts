'use client';
import { startTransition, type FormEvent } from 'react';

/**
 * React resets a form after its action runs, which would wipe what the shopper typed
 * when the server answers "please fix this field". Submitting through this handler keeps
 * the values; the form's `action` stays for browsers without JavaScript.
 */
export function keepValuesOnSubmit(formAction: (form: FormData) => void) {
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    startTransition(() => formAction(form));
  };
}
