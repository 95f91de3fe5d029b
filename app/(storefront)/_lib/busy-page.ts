import type { NextRequest } from 'next/server';
import { API_POLICY } from '@/lib/security/content-security-policy.mjs';
import { LOCALE_COOKIE } from '@/lib/storefront/routing';
import { dictionary, fill, uiLanguage } from './i18n';

/** 429 with the API's Retry-After, at once: a plain page in the shopper's language, nothing rendered. */
export function tooManyRequests(req: NextRequest, seconds: number): Response {
  const lang = uiLanguage(req.cookies.get(LOCALE_COOKIE)?.value ?? 'en');
  const t = dictionary(lang);
  const text = fill(t.busyText, { seconds });
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${t.busyTitle}</title></head><body><main><h1>${t.busyTitle}</h1><p>${text}</p></main></body></html>`;
  return new Response(html, {
    status: 429,
    headers: {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Retry-After': String(seconds),
      'Content-Security-Policy': API_POLICY,
    },
  });
}
