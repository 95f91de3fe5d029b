import { inlineSources } from '@/lib/security/content-security-policy.mjs';
import swaggerUi from 'swagger-ui-dist/package.json';
import { versionedName } from './assets.mjs';

const { version } = swaggerUi;

// GET /docs — the human API reference: Swagger UI (swagger-ui-dist, a maintained renderer)
// over the generated OpenAPI document; its files are static, copied in at build time
// (./assets.mjs), under names that carry the renderer's version.
// "Try it out" is off: credentials belong on servers.
const html = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Site Delivery API reference</title>
  <link rel="stylesheet" href="/docs/assets/${versionedName('swagger-ui.css', version)}">
  <style>body{margin:0} .topbar{display:none}</style>
</head>
<body>
  <main id="reference" aria-label="Site Delivery API reference"></main>
  <script src="/docs/assets/${versionedName('swagger-ui-bundle.js', version)}"></script>
  <script>
    window.ui = SwaggerUIBundle({
      url: '/site/v1/openapi.json',
      dom_id: '#reference',
      deepLinking: true,
      supportedSubmitMethods: [],
      defaultModelsExpandDepth: 0,
      // tags folded: the first view renders a short list, not every operation at once
      docExpansion: 'none',
    });
  </script>
</body>
</html>`;

/**
 * The page's own inline script and style by hash, the renderer's files from this origin, the
 * icons its stylesheet embeds as data: URLs, and the OpenAPI document it fetches.
 */
const { scripts, styles } = inlineSources(html);
const policy = [
  "default-src 'none'",
  `script-src 'self'${scripts}`,
  `style-src 'self'${styles}`,
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function GET(): Response {
  return new Response(html, {
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'public, max-age=300', 'Content-Security-Policy': policy },
  });
}
