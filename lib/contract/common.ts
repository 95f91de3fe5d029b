import 'zod-openapi';
import { z } from 'zod';
import { PROBLEM_CODES } from './problems';

/**
 * An amount a caller sends (a price filter, a catalog's price): digits, and at most four
 * decimals; the currency's own minor-unit digits bound it further where it is read.
 */
export const DECIMAL_AMOUNT = /^\d{1,12}(\.\d{1,4})?$/;

export const Money = z
  .object({
    amount: z
      .string()
      .regex(/^-?\d+(\.\d+)?$/)
      .meta({ description: "Decimal string in the currency's minor-unit precision.", example: '199.00' }),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .meta({ description: 'ISO 4217 code.', example: 'SEK' }),
  })
  .meta({ id: 'Money' });
export type Money = z.infer<typeof Money>;

export const Timestamp = z.string().meta({ description: 'RFC 3339 UTC time.', example: '2026-11-21T10:00:00.000Z' });

export const AvailabilityStatus = z.enum(['in_stock', 'low_stock', 'out_of_stock', 'preorder']).meta({ id: 'AvailabilityStatus' });
export type AvailabilityStatus = z.infer<typeof AvailabilityStatus>;

/**
 * A link in an answer: always absolute, on the deployment's public origin (or the origin the
 * request came in on) unless it points elsewhere. Stored as a path; the route wrapper makes
 * it absolute as the answer is written, which is why it is a plain string here.
 */
export const Link = (description: string) => z.string().meta({ description, override: { type: 'string', format: 'uri' } });

export const Image = z
  .object({ url: Link('The image, an absolute URL.'), alt: z.string(), width: z.number().int(), height: z.number().int() })
  .meta({ id: 'Image' });
export type Image = z.infer<typeof Image>;

/** ?market=&locale= — both default to the Site's defaults; unknown values are 422s of their own. */
export const MarketQuery = z.object({
  market: z.string().min(1).max(64).optional().meta({ description: "Market id (e.g. `se`). Default: the Site's default market." }),
  locale: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: "BCP 47 locale offered in the market. Default: the market's default locale." }),
});
export type MarketQuery = z.infer<typeof MarketQuery>;

export const Cursor = z.string().min(1).max(512).meta({ description: 'Opaque cursor from `page.nextCursor`.' });

/**
 * A query parameter's decimal digits as a number. Only digits: `Number()` alone would also
 * take `0x10`, `1e2` and ` 1`, which no client means as a count. Anything else stays a
 * string and fails the number check (422).
 */
export function queryInteger<T extends z.ZodNumber>(schema: T) {
  return z.preprocess((value) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value), schema);
}

export function pageQuery(maxLimit: number) {
  return z.object({
    limit: queryInteger(z.number().int().min(1).max(maxLimit))
      .default(24)
      .meta({ description: `1–${maxLimit}, default 24.` }),
    cursor: Cursor.optional(),
  });
}

export const PageInfo = z.object({ limit: z.number().int(), nextCursor: z.string().nullable() }).meta({ id: 'PageInfo' });

export function page<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), page: PageInfo });
}

export const Handle = z.string().min(1).max(200).meta({ description: 'URL handle.' });
export const HandleParams = z.object({ handle: Handle });

export const FieldError = z
  .object({ pointer: z.string(), code: z.string(), detail: z.string() })
  .meta({ id: 'FieldError', description: 'One offending input: an RFC 6901 pointer into the request, a code and a detail.' });

const ProblemFields = {
  type: z.string().meta({ description: 'A URI naming the kind of problem.' }),
  title: z.string(),
  status: z.number().int(),
  detail: z.string().meta({ description: 'What went wrong, for a person to read.' }),
  requestId: z.string(),
  errors: z.array(FieldError).optional().meta({ description: 'One entry per offending input, with an RFC 6901 pointer into the request.' }),
};

/** Any problem the API answers (the codes of every operation). */
export const Problem = z
  .object({ ...ProblemFields, code: z.enum(PROBLEM_CODES) })
  .catchall(z.unknown())
  .meta({ id: 'Problem', description: 'RFC 9457 problem details.' });
export type Problem = z.infer<typeof Problem>;

/** A problem whose `code` is one of these: an operation's error answers name only the codes it can give. */
export function problemOf(codes: readonly (typeof PROBLEM_CODES)[number][]) {
  return z
    .object({ ...ProblemFields, code: z.enum(codes as [string, ...string[]]) })
    .catchall(z.unknown())
    .meta({ description: 'RFC 9457 problem details.' });
}
