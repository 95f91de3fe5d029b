import { processSlot } from '@/lib/process-state';
import { logDatabase } from './log';
/**
 * Storage faults: the database errors that say nothing about the request and everything
 * about the disk or another process, so the API answers them 503 with Retry-After (the
 * caller may simply try again later) rather than 500.
 *
 * - busy: another process holds the write lock past the busy timeout.
 * - full: the disk (or the file's quota) is full.
 * - readonly: the files, their folder or the file system are read-only.
 * - io: the operating system failed a read or write (a failing disk, a vanished mount).
 * - cantopen: the file cannot be opened at all (missing folder, no permission).
 * - corrupt: the file is damaged. This one does not pass by itself; it still gets a 503
 *   (nothing the caller did, nothing a bug in the code did) and the log says an operator
 *   must act.
 * - unreachable: a remote database server (libsql://, http(s)://) cannot be reached, resets
 *   the connection, answers with an HTTP error or a broken stream, or does not answer
 *   within DATABASE_TIMEOUT_MS.
 * - denied: the remote server refuses the credential (HTTP 401 or 403): DATABASE_AUTH_TOKEN
 *   is wrong or expired. It does not pass by itself either; an operator must act.
 * - timeout: a read ran past DATABASE_STATEMENT_TIMEOUT_MS and was interrupted
 *   (db/driver/statement-time-limit.ts); the connection goes on serving.
 */
export type StorageFault = 'busy' | 'full' | 'readonly' | 'io' | 'cantopen' | 'corrupt' | 'unreachable' | 'denied' | 'timeout';

const BY_CODE: Array<[RegExp, StorageFault]> = [
  [/^SQLITE_(BUSY|LOCKED)/, 'busy'],
  [/^SQLITE_FULL/, 'full'],
  [/^SQLITE_READONLY/, 'readonly'],
  [/^SQLITE_(IOERR|PROTOCOL|NOLFS)/, 'io'],
  [/^SQLITE_(CANTOPEN|PERM)/, 'cantopen'],
  [/^SQLITE_(CORRUPT|NOTADB)/, 'corrupt'],
  [/^SQLITE_INTERRUPT/, 'timeout'],
  // Node's own file errors (opening the folder, checking the files)
  [/^(ENOSPC|EDQUOT)$/, 'full'],
  [/^(EROFS|EPERM|EACCES)$/, 'readonly'],
  [/^EIO$/, 'io'],
  // A remote server (db/driver/remote-client.ts): sqld taking the lock from a transaction
  // that held it too long, or having no room for another one
  [/^TRANSACTION_(TIMEOUT|BUSY)$/, 'busy'],
  // the network, the request's time limit, the server's HTTP errors and broken streams
  [
    /^(ECONNREFUSED|ECONNRESET|ECONNABORTED|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_\w+|DATABASE_TIMEOUT)$/,
    'unreachable',
  ],
  [/^(SERVER_ERROR|HRANA_\w+|STREAM_EXPIRED|PROTOCOL_VERSION_ERROR)$/, 'unreachable'],
];

const BY_MESSAGE: Array<[RegExp, StorageFault]> = [
  [/SQLITE_BUSY|database is locked/i, 'busy'],
  [/SQLITE_FULL|database or disk is full/i, 'full'],
  [/SQLITE_READONLY|attempt to write a readonly database/i, 'readonly'],
  [/SQLITE_IOERR|disk I\/O error/i, 'io'],
  [/SQLITE_CANTOPEN|unable to open database file/i, 'cantopen'],
  [/SQLITE_CORRUPT|SQLITE_NOTADB|database disk image is malformed|file is not a database/i, 'corrupt'],
  [/SQLITE_INTERRUPT/, 'timeout'],
  // undici's fetch says only this; its cause (checked too) has the network code
  [/^fetch failed$/, 'unreachable'],
];

/** The storage fault behind an error (looking through drizzle's and the client's wrappers), or null. */
export function storageFaultOf(error: unknown): StorageFault | null {
  // The client wraps a server's HTTP answer as SERVER_ERROR; its status, further in, says "denied".
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const status = (e as { name?: unknown; status?: unknown }).name === 'HttpServerError' ? (e as { status?: unknown }).status : undefined;
    if (status === 401 || status === 403) return 'denied';
  }
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const codes = [(e as { extendedCode?: unknown }).extendedCode, (e as { code?: unknown }).code];
    for (const code of codes) {
      if (typeof code !== 'string') continue;
      for (const [pattern, fault] of BY_CODE) if (pattern.test(code)) return fault;
    }
    if (e instanceof Error) {
      for (const [pattern, fault] of BY_MESSAGE) if (pattern.test(e.message)) return fault;
    }
    // AbortSignal.timeout() firing while an answer's body is still being read
    if ((e as { name?: unknown }).name === 'TimeoutError') return 'unreachable';
  }
  return null;
}

/** Seconds a caller should wait before trying again (the Retry-After of the 503). */
export function retryAfterSeconds(fault: StorageFault): number {
  return fault === 'busy' || fault === 'timeout' ? 1 : 5;
}

const WHAT: Record<StorageFault, string> = {
  busy: 'another process holds the write lock longer than DATABASE_BUSY_TIMEOUT_MS; writes answer 503 until it lets go',
  full: 'the disk is full; writes answer 503 until space is freed',
  readonly: 'the database files are read-only; writes answer 503 until they are writable again',
  io: 'the operating system reports I/O errors on the database files; affected requests answer 503',
  cantopen: 'the database file cannot be opened; requests that need it answer 503',
  corrupt: 'the database file is damaged; requests that touch the damage answer 503 — an operator must restore it',
  unreachable: 'the database server cannot be reached or does not answer within DATABASE_TIMEOUT_MS; requests that need it answer 503',
  denied: 'the database server refuses the credential (check DATABASE_AUTH_TOKEN); requests answer 503 until an operator fixes it',
  timeout: 'a read ran longer than DATABASE_STATEMENT_TIMEOUT_MS and was interrupted; its request answered 503',
};

/** A fault kind is logged again at most this often while it lasts. */
export const FAULT_LOG_INTERVAL_MS = 30_000;
/**
 * A fault counts as cleared at a write that succeeds this long after its last failure.
 * A full disk lets some writes through (SQLite reuses space inside its files) between
 * failures; without this the log would say "cleared" and "fault" again for each.
 */
export const FAULT_CLEARED_AFTER_MS = 1_000;

type Entry = { since: number; lastLogged: number; lastFailed: number; count: number };
type FaultLog = { active: Map<StorageFault, Entry> };
// One log per process, however many bundled copies of this module there are.
const log = processSlot<FaultLog>('storageFaults', () => ({ active: new Map() }));

/**
 * Says once (then at most every FAULT_LOG_INTERVAL_MS) that a kind of fault is happening:
 * one line, without a stack, however many requests it fails.
 */
export function reportStorageFault(fault: StorageFault, error: unknown): void {
  const now = Date.now();
  const entry = log.active.get(fault);
  if (entry) {
    entry.count += 1;
    entry.lastFailed = now;
    if (now - entry.lastLogged < FAULT_LOG_INTERVAL_MS) return;
    logDatabase(
      'error',
      { fault, failures: entry.count, since: new Date(entry.since).toISOString(), code: codeOf(error) },
      `storage fault (${fault}) continues: ${entry.count} failures since ${new Date(entry.since).toISOString()} — ${codeOf(error)}`,
    );
    entry.lastLogged = now;
    return;
  }
  log.active.set(fault, { since: now, lastLogged: now, lastFailed: now, count: 1 });
  logDatabase('error', { fault, code: codeOf(error) }, `storage fault (${fault}): ${WHAT[fault]} — ${codeOf(error)}`);
}

/** A write went through: each fault reported that has not recurred for a while has cleared; say so once. */
export function reportStorageRecovered(): void {
  if (log.active.size === 0) return;
  const now = Date.now();
  for (const [fault, entry] of log.active) {
    if (now - entry.lastFailed < FAULT_CLEARED_AFTER_MS) continue;
    const seconds = Math.round((entry.lastFailed - entry.since) / 1000);
    logDatabase(
      'warn',
      { fault, failures: entry.count, seconds },
      `storage fault (${fault}) cleared after ${seconds} s and ${entry.count} failures; writes succeed again`,
    );
    log.active.delete(fault);
  }
}

/** Is any fault reported and not yet cleared? (cheap: checked after every write) */
export function storageFaultActive(): boolean {
  return log.active.size > 0;
}

function codeOf(error: unknown): string {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { extendedCode?: unknown }).extendedCode ?? (e as { code?: unknown }).code;
    if (typeof code === 'string' && code) {
      const message = String((e as Error).message ?? '');
      return (message.startsWith(code) ? message : `${code}: ${message}`).slice(0, 200);
    }
  }
  return error instanceof Error ? error.message.slice(0, 200) : String(error).slice(0, 200);
}
