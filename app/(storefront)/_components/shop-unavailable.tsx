import type { Dictionary } from '../_lib/i18n';

/** Shown when the API cannot be reached at all: a clear message instead of a crash page. */
export function ShopUnavailable({ t }: { t: Dictionary }) {
  return (
    <main id="main" className="container state" role="alert">
      <h1>{t.errorTitle}</h1>
      <p className="muted">{t.errorText}</p>
      <a className="btn btn-primary" href="">{t.retry}</a>
    </main>
  );
}
