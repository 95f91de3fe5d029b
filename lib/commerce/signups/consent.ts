import { hash } from 'node:crypto';
import { consents } from '@/db/schema';
import type { Database, DbOrTx, Statement } from '@/db';
import { DomainError } from '@/lib/platform/errors';
import { newTimeOrderedId } from '@/lib/platform/ids';

export type ConsentPurpose = (typeof consents.$inferInsert)['purpose'];

/**
 * A missing consent, or one not granted with the JSON literal `true`, is `consent_required`
 * — answered ahead of every other field so no signup without consent gets any further.
 * Runs on the raw body; anything that is not an object is left to the schema.
 */
export function requireConsent(rawBody: unknown): void {
  if (rawBody === null || typeof rawBody !== 'object' || Array.isArray(rawBody)) return;
  const consent = (rawBody as Record<string, unknown>).consent;
  if (consent === null || typeof consent !== 'object' || Array.isArray(consent)) {
    throw new DomainError('consent_required', "A signup needs the shopper's consent: { granted: true, text, version }.", {
      errors: [{ pointer: '/consent', code: 'consent_required', detail: 'Consent is missing.' }],
    });
  }
  if ((consent as Record<string, unknown>).granted !== true) {
    throw new DomainError('consent_required', 'The consent must be granted (`"granted": true`).', {
      errors: [{ pointer: '/consent/granted', code: 'consent_required', detail: 'Must be the JSON literal true.' }],
    });
  }
}

/** sha256 of the exact text (UTF-8), hex: proves later which wording was agreed to. */
export function consentTextHash(text: string): string {
  return hash('sha256', text, 'hex');
}

export type ConsentRecord = {
  siteId: string;
  purpose: ConsentPurpose;
  email: string;
  text: string;
  version: string;
  locale: string | null;
  source: string | null;
  credentialId: string;
  at: number;
};

/**
 * Every consent given is kept as its own record, a repeat signup included: it is evidence
 * of what the address agreed to and when, and a record for one purpose is never read as
 * consent for another.
 */
export async function recordConsent(tx: DbOrTx, record: ConsentRecord): Promise<string> {
  const id = newTimeOrderedId('cons', record.at);
  await tx.insert(consents).values(consentRow(id, record));
  return id;
}

/** recordConsent as a statement of a write batch (not yet run), with the new record's id. */
export function consentStatement(database: Database, record: ConsentRecord): { id: string; statement: Statement } {
  const id = newTimeOrderedId('cons', record.at);
  const { sql, params } = database.insert(consents).values(consentRow(id, record)).toSQL();
  return { id, statement: { sql, args: params as never } };
}

function consentRow(id: string, record: ConsentRecord): typeof consents.$inferInsert {
  return {
    id,
    siteId: record.siteId,
    purpose: record.purpose,
    email: record.email,
    text: record.text,
    textVersion: record.version,
    textHash: consentTextHash(record.text),
    locale: record.locale,
    source: record.source,
    credentialId: record.credentialId,
    createdAt: record.at,
  };
}
