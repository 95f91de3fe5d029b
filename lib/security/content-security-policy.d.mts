/** A page rendered on request: scripts and inline styles must carry this nonce (relaxed under `next dev`). */
export function noncePolicy(nonce: string, options?: { development?: boolean }): string;
/** A cached page: its own inline scripts and styles, by hash, and the origin's script files. */
export function hashPolicy(html: string): string;
/** Hash sources (each with a leading space) of a document's inline scripts and styles. */
export function inlineSources(html: string): { scripts: string; styles: string };
/** API answers: nothing may load or frame them. */
export const API_POLICY: string;
/** Strict-Transport-Security for answers that went out over HTTPS. */
export const HSTS: string;
