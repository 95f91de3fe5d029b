'use client';
import { useEffect } from 'react';
import { useChromeStrings } from './_components/i18n-context';

/**
 * What a shopper sees when a page cannot be rendered (the API is down, slow or answered
 * something unexpected): a plain message and a retry, never a stack trace.
 */
export default function ShopError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const t = useChromeStrings();
  useEffect(() => {
    console.error(`[storefront] page error ${error.digest ?? ''}`);
  }, [error]);
  return (
    <div className="state" role="alert">
      <h1>{t.errorTitle}</h1>
      <p className="muted">{t.errorText}</p>
      <button className="btn btn-primary" type="button" onClick={() => reset()}>
        {t.retry}
      </button>
    </div>
  );
}
