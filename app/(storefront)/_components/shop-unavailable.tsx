import type { Dictionary } from '../_lib/i18n';

/** Shown when the API cannot be reached at all: a clear message instead of a crash page. */
export function ShopUnavailable({ t }: { t: Dictionary }) {
  return (
    <main id="main" className="container state" role="alert">
      {/* The layout renders this instead of the page, and with it the page's metadata: React
          puts this title in <head>. */}
      <title>{t.errorTitle}</title>
      <h1>{t.errorTitle}</h1>
      <p className="muted">{t.errorText}</p>
      <a className="btn btn-primary" href="">{t.retry}</a>
    </main>
  );
}
