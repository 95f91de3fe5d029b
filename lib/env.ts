import 'server-only';
import { z } from 'zod';

/**
 * The only reader of process.env. Validated once, on first use, so a bad setting
 * fails loudly at start rather than on some later request.
 */
const Env = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: z
    .string()
    .regex(/^(file:|libsql:\/\/|https?:\/\/|wss?:\/\/)/, 'must be file:, libsql://, http(s):// or ws(s)://')
    .default('file:./data/site.db'),
  DATABASE_AUTH_TOKEN: z.string().min(1).optional(),
  /** How long a write waits for another writer's lock before the API answers 503 (local files). */
  DATABASE_BUSY_TIMEOUT_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /**
   * How long one request to a remote database (libsql://, http(s)://) may take before it
   * fails and the API answers 503: a server that is down, refuses or stalls never hangs a request.
   */
  DATABASE_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
  /**
   * How long one read statement on a local file may run before it is interrupted and the API
   * answers 503 (db/driver/statement-time-limit.ts): no read holds the event loop past it.
   */
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(10).max(60_000).default(2000),
  /** How often the checkpoint worker copies a local file's WAL into the database (db/driver/checkpointer.ts). */
  DATABASE_CHECKPOINT_INTERVAL_MS: z.coerce.number().int().min(10).max(3_600_000).default(250),
  /** Checkout sessions live this long (seconds). */
  CHECKOUT_SESSION_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86400)
    .default(86400),
  /** Per-credential budgets per window; generous defaults that never trouble the demo. */
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  RATE_LIMIT_READS: z.coerce.number().int().min(1).default(100_000),
  RATE_LIMIT_WRITES: z.coerce.number().int().min(1).default(20_000),
  /**
   * One shopper's share of those budgets (a shopper is named by Site-Buyer-IP; the storefront
   * names every shopper). Charged in addition to the credential's, never instead of it.
   */
  RATE_LIMIT_READS_PER_SHOPPER: z.coerce.number().int().min(1).default(3000),
  RATE_LIMIT_WRITES_PER_SHOPPER: z.coerce.number().int().min(1).default(300),
  /** HMAC key for the per-shopper buckets (Site-Buyer-IP); the same on every instance. */
  RATE_LIMIT_KEY: z.string().min(32).optional(),
  /**
   * Confirmation mails the signups send a day, per recipient mailbox (plus-addresses and
   * case folded) and per shopper (Site-Buyer-IP); past either they answer as usual and
   * send nothing (docs/operating.md).
   */
  SIGNUP_MAILS_PER_MAILBOX: z.coerce.number().int().min(1).max(1000).default(3),
  SIGNUP_MAILS_PER_SHOPPER: z.coerce.number().int().min(1).max(100_000).default(20),
  /** The storefront's own Site credential (server-only). */
  SITE_API_CREDENTIAL: z.string().optional(),
  /** Where the storefront finds the API; defaults to this same server. */
  SITE_API_BASE_URL: z.string().url().optional(),
  /**
   * The shop's public origin (`https://shop.example.com`) for canonical and structured-data
   * URLs. Set it in production: cached product pages then never depend on the Host header.
   * Without it they use the origin of the request, as every other page does.
   */
  STOREFRONT_ORIGIN: z
    .string()
    .url()
    .refine((url) => /^https?:\/\/[^/?#]+\/?$/.test(url), 'must be an http(s) origin, without a path')
    .transform((url) => new URL(url).origin)
    .optional(),
  /**
   * How many reverse proxies in front of the storefront append the address they saw to
   * X-Forwarded-For. 0 (the default): the shopper is the socket's peer and X-Forwarded-For
   * is ignored. N: the shopper is the entry N hops from the right. Set it only when the
   * server cannot be reached except through those proxies.
   */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * The platform's header that names the visitor's country (`x-vercel-ip-country` on Vercel,
   * `cf-ipcountry` behind Cloudflare). Set, a first visit opens the shop in the market that
   * sells to that country (docs/storefront.md). Unset (the default): no such header is
   * believed, since anyone can send one where the platform does not set it.
   */
  TRUST_COUNTRY_HEADER: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^[A-Za-z0-9-]{1,64}$/, 'must be a header name, e.g. x-vercel-ip-country')
      .transform((v) => v.toLowerCase())
      .optional(),
  ),
  /**
   * Shop pages one process renders at once (lib/server/render-gate.ts); the rest wait in a
   * line of PAGE_RENDER_LINE, and past that are answered 503 with Retry-After. Unset: twice
   * the CPUs the process may use.
   */
  PAGE_RENDERS: z.coerce.number().int().min(1).max(256).optional(),
  PAGE_RENDER_LINE: z.coerce.number().int().min(0).max(100_000).default(512),
  /**
   * Of those renders and that line, the places one shopper (their address, as TRUSTED_PROXY_HOPS
   * finds it) holds at once; the rest of theirs wait behind their own (lib/server/render-gate.ts).
   */
  PAGE_RENDERS_PER_SHOPPER: z.coerce.number().int().min(1).max(256).default(2),
  /**
   * The share of the process's time one shopper's list pages asked with a query (search,
   * sort, filters) may take after a first second at full speed (lib/server/page-pacer.ts).
   */
  LIST_PAGES_SHARE_PER_SHOPPER: z.coerce.number().min(0.05).max(1).default(0.25),
  /**
   * `off`: product pages are not kept in the database (docs/storefront.md), only in Next's
   * page cache in memory. PAGE_RENDER_AHEAD `off`: kept pages are rendered when first
   * viewed only, never ahead of shoppers after a catalog change. Unset, it is on in
   * production only: `next dev` renders nothing ahead unless `on` asks (lib/jobs/render-ahead.ts).
   */
  PAGE_STORE: z.enum(['on', 'off']).default('on'),
  PAGE_RENDER_AHEAD: z.enum(['on', 'off']).optional(),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /**
   * The mail server for the shop's mails (docs/mail.md): `smtp://user:pass@host:587`
   * (STARTTLS when offered) or `smtps://user:pass@host:465` (TLS). Unset: every mail is
   * written as an .eml file under the data folder instead.
   */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/?#]+/, 'must be smtp://user:pass@host:port or smtps://…')
    .optional(),
  /** The sender: `shop@example.com` or `Shop <shop@example.com>` (without a name, the shop's name is shown). */
  MAIL_FROM: z.string().min(3).max(320).regex(/@/, 'must contain an address').optional(),
  /** Where .eml files go without SMTP_URL; default: `outbox/` beside the database file. */
  MAIL_EML_DIR: z.string().min(1).optional(),
  /** `off`: this process does not drain the outbox in the background (cron runs `npm run outbox -- drain`). */
  OUTBOX_DRAIN: z.enum(['on', 'off']).default('on'),
  /** Between drain passes when this process queued nothing (its own messages go within half a second). */
  OUTBOX_DRAIN_INTERVAL_MS: z.coerce.number().int().min(200).max(600_000).default(15_000),
  /** Attempts before a message is parked as `failed`, and the first retry delay (it doubles, up to an hour). */
  OUTBOX_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  OUTBOX_RETRY_BASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
  /**
   * `timers` (the default): `next start` runs the background jobs (lib/jobs) itself. `cron`:
   * it runs none, and a platform's cron calls GET /api/cron/<name> instead (vercel.json).
   */
  JOBS: z.enum(['timers', 'cron']).default('timers'),
  /** The Bearer secret of /api/cron/<name> (Vercel Cron sends it); unset, those routes answer 404. */
  CRON_SECRET: z.string().min(16).optional(),
  /**
   * Set for `next start` by `npm start`: Next then leaves SIGTERM to the server's own clean
   * shutdown (lib/server/shutdown.ts) instead of exiting at once.
   */
  NEXT_MANUAL_SIG_HANDLE: z.string().optional(),
  /** On SIGTERM, how long requests in flight and running jobs may take before the process exits. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  /**
   * Stripe (docs/payments.md): with both keys set, prepare-payment creates a Stripe hosted
   * Checkout and POST /api/webhooks/stripe completes orders; without them, the sandbox.
   */
  STRIPE_SECRET_KEY: z.string().min(8).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(8).optional(),
  /** Another origin for Stripe's API (a local stand-in in tests); unset, Stripe's own. */
  STRIPE_API_URL: z.string().url().optional(),
  /** Who gets the notice of every new order; unset, no notice is sent. */
  MERCHANT_EMAIL: z.string().min(3).max(320).regex(/@/, 'must be an address').optional(),
  /** Set by Next itself; the background drain does not start while `next build` runs. */
  NEXT_PHASE: z.string().optional(),
  /** The least severe log level written (lib/platform/observability/logger.ts reads it itself, first). */
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).optional(),
  /** Set: GET /metrics answers to `Authorization: Bearer <token>` (docs/operating.md); unset: 404, nothing recorded. */
  METRICS_TOKEN: z.string().min(16).optional(),
  /** Set: traces go out over OTLP/HTTP to this collector (`/v1/traces` is added); unset: no spans at all. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  /** The same, as the whole URL of the traces endpoint (takes precedence). */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().url().optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default('site-delivery'),
  /** Only the benchmark sets this: it enables the framework-ceiling route. */
  BENCH_CEILING: z.enum(['0', '1']).default('0'),
});
export type Env = z.infer<typeof Env>;

/** A real mail server needs a real sender: refuse to start with SMTP_URL but no MAIL_FROM. */
const Checked = Env.refine((e) => !e.SMTP_URL || e.MAIL_FROM, {
  message: 'MAIL_FROM is required when SMTP_URL is set',
  path: ['MAIL_FROM'],
});

let cached: Env | undefined;

export function env(): Env {
  if (!cached) {
    const parsed = Checked.safeParse(process.env);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
      throw new Error(`Invalid environment: ${issues}`);
    }
    cached = parsed.data;
  }
  return cached;
}
