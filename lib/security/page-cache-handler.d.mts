/** Next's page cache, whose HTML entries carry a hash-based Content-Security-Policy. */
export default class PageCacheHandler {
  constructor(ctx: {
    flushToDisk?: boolean;
    serverDistDir?: string;
    maxMemoryCacheSize?: number;
    revalidatedTags?: string[];
    fs?: unknown;
  });
  get(key: string, ctx: Record<string, unknown>): Promise<{ value: { headers: Record<string, string> } & Record<string, unknown> } | null>;
  set(key: string, data: unknown, ctx: Record<string, unknown>): Promise<void>;
}

/** Makes PageCacheHandler the page cache of every IncrementalCache Next creates in this process. */
export function registerPageCache(options?: {
  /** Handed every page rendered whole (status 200): its cache key (the path), HTML and Content-Security-Policy. */
  onPage?: (key: string, html: string, policy: string) => void;
  /** Whether a key's page is only ever in memory (never built, never flushed): a miss there needs no disk read. */
  memoryOnly?: (key: string) => boolean;
}): void;

/** Spares Next's IncrementalCache (the class of `cache`) measuring entries it never checks: all but fetch entries. */
export function measureEntriesCheaply(cache: unknown): void;
