// Plain JavaScript on purpose: next.config.mjs, which Node loads outside Next's bundler, takes
// the API's policy and HSTS from here; the page-cache handler (page-cache-handler.mjs) builds
// its policy from the same directives as the proxy does for pages rendered on request.
import { createHash } from 'node:crypto';

/**
 * Everything a storefront page needs comes from its own origin — scripts, the stylesheet,
 * the shop's own `/shop-api` calls — but product images, which a merchant's catalog may keep
 * on any HTTPS host (an import from Shopify points at its CDN); an image runs no code.
 * Nothing may frame the page, no plugin may run, `<base>` cannot re-point relative URLs and
 * forms only post to the shop.
 */
const SHARED = [
  "default-src 'self'",
  "img-src 'self' https:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
];

/**
 * A page rendered on request: Next puts the nonce on every script and inline style it emits
 * (it reads it from the request's Content-Security-Policy header). `'strict-dynamic'` lets
 * those scripts load the app's other chunks; `'self'` only matters to browsers too old for it.
 *
 * `next dev` alone needs more: React rebuilds server error stacks with eval, and hot reload
 * injects styles without the nonce. Production never gets these.
 */
export function noncePolicy(nonce, { development = false } = {}) {
  return [
    ...SHARED,
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ''}`,
    development ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
  ].join('; ');
}

/**
 * A page served from Next's page cache: the same HTML goes to every shopper, so no nonce can
 * be in it. Instead every inline script (Next's bootstrap and its RSC payload) and inline
 * style of that very HTML is allowed by its hash, and nothing else inline is; the app's
 * script files come from `'self'`.
 */
export function hashPolicy(html) {
  const { scripts, styles } = inlineSources(html);
  return [...SHARED, `script-src 'self'${scripts}`, `style-src 'self'${styles}`].join('; ');
}

/**
 * The hash sources (each with a leading space, or empty) of a document's inline scripts and
 * inline styles, for a policy that allows exactly those.
 */
export function inlineSources(html) {
  const scripts = inlineBlocks(html, 'script').filter((b) => !b.attributes.includes('src=') && isJavaScript(b.attributes));
  const styles = inlineBlocks(html, 'style');
  const sources = (blocks) => [...new Set(blocks.map((b) => ` 'sha256-${sha256(b.text)}'`))].join('');
  return { scripts: sources(scripts), styles: sources(styles) };
}

/** The API and anything else that is no document: nothing at all may load or frame it. */
export const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Two years, the shop's host only: whether subdomains (and preloading) may be pinned to
 * HTTPS too is the domain owner's call, not the shop's.
 */
export const HSTS = 'max-age=63072000';

/**
 * `<script>` / `<style>` elements of Next's own HTML. React escapes `</` inside them, so the
 * first closing tag ends the element; the browser hashes the text after its input stream
 * turned CRLF and CR into LF.
 */
function inlineBlocks(html, tag) {
  const found = [];
  const pattern = new RegExp(`<${tag}\\b([^>]*)>([\\s\\S]*?)</${tag}\\s*>`, 'gi');
  for (const match of html.matchAll(pattern)) {
    found.push({ attributes: (match[1] ?? '').toLowerCase(), text: (match[2] ?? '').replace(/\r\n?/g, '\n') });
  }
  return found;
}

/** JSON-LD and other data blocks are never run, so CSP does not ask for their hashes. */
function isJavaScript(attributes) {
  const type = /\btype\s*=\s*["']?([^"'\s>]+)/.exec(attributes)?.[1];
  return !type || type === 'module' || type === 'text/javascript' || type === 'application/javascript';
}

function sha256(text) {
  return createHash('sha256').update(text, 'utf8').digest('base64');
}
