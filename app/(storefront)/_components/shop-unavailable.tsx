import { fill, type Dictionary } from '../_lib/i18n';

/**
 * Shown when the API cannot be reached at all: a clear message instead of a crash page. With
 * `waitSeconds`, the API answers but not this shopper for now (their own budget is spent).
 */
export function ShopUnavailable({ t, waitSeconds = null }: { t: Dictionary; waitSeconds?: number | null }) {
  const title = waitSeconds === null ? t.errorTitle : t.busyTitle;
  return (
    <main id="main" className="container state" role="alert">
      {/* The layout renders this instead of the page, and with it the page's metadata: React
          puts this title in <head>. */}
      <title>{title}</title>
      <h1>{title}</h1>
      <p className="muted">{waitSeconds === null ? t.errorText : fill(t.busyText, { seconds: waitSeconds })}</p>
      <a className="btn btn-primary" href="">
        {t.retry}
      </a>
    </main>
  );
}
