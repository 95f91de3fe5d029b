import pino, { type Logger } from 'pino';
import { processSlot } from '@/lib/process-state';

/**
 * The process's logger: one JSON line per event on stdout, written by this thread (no worker
 * thread: pino's transports run one, which Next's server bundles cannot load). Lines go out
 * in batches (`batchedStdout`); under `next dev` they are made readable by pino-pretty, one
 * by one. LOG_LEVEL (docs/operating.md) picks the least severe level written: trace, debug,
 * info (the default), warn, error, fatal or silent.
 *
 * What a line may carry is decided where it is written: ids, names, numbers, codes. Never a
 * credential, an email address, an IP address or a body.
 *
 * One logger per process, however many bundled copies of this module there are.
 */
const holder = processSlot<{ logger?: Logger }>('logger', () => ({}));

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

export function logger(): Logger {
  return (holder.logger ??= makeLogger());
}

/** What every line looks like, whatever it is written to (tests write them elsewhere). */
export function loggerOptions(level = 'info'): pino.LoggerOptions {
  return {
    level,
    // No pid or host name on every line: the platform's log already says where it came from.
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // The error's stack goes into its line as one JSON string: nowhere else.
    serializers: { err: pino.stdSerializers.err },
  };
}

function makeLogger(): Logger {
  // Read here rather than through env(): a bad LOG_LEVEL must not keep the line that says
  // the environment is invalid from being written.
  const wanted = process.env.LOG_LEVEL?.trim().toLowerCase();
  const options = loggerOptions(wanted && (LOG_LEVELS as readonly string[]).includes(wanted) ? wanted : 'info');
  const made = process.env.NODE_ENV === 'development' ? prettyLogger(options) : null;
  const log = made ?? pino(options, batchedStdout());
  if (wanted && !(LOG_LEVELS as readonly string[]).includes(wanted)) {
    log.warn(`LOG_LEVEL ${JSON.stringify(wanted)} is not one of ${LOG_LEVELS.join(', ')}; logging at info`);
  }
  return log;
}

/** Lines are written when this many bytes of them wait, or this long after the first of them. */
export const LINE_BATCH_BYTES = 8192;
export const LINE_FLUSH_MS = 200;

export type LineBatch = pino.DestinationStream & { end(): void };

/**
 * stdout, written in batches: a write per line was a system call per API request, and on a
 * pipe (where a platform collects a process's output) each one wakes its reader, which cost
 * a cached read a few per cent of its CPU (docs/operating.md#logs). A warning or worse goes
 * out at once with every line before it, so a failure's line is out before anything that
 * follows it can stop the process; the rest go out within LINE_FLUSH_MS, and at the process's
 * exit. A process killed outright (SIGKILL, out of memory) loses at most that long of lines.
 */
export function batchedStdout(fd = 1): LineBatch {
  const out = pino.destination({ dest: fd, sync: true, minLength: LINE_BATCH_BYTES });
  let timer: NodeJS.Timeout | undefined;
  // In sync mode `flush` writes what waits at once; `flushSync` also fsyncs, which stdout
  // redirected to a file would pay on every batch, so it is kept for the exit.
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    out.flush();
  };
  const flushSync = () => {
    clearTimeout(timer);
    timer = undefined;
    out.flushSync();
  };
  process.once('exit', flushSync);
  return {
    // pino sets `lastLevel` before each write on a stream that asks for it.
    [Symbol.for('pino.metadata')]: true,
    lastLevel: 0,
    write(line: string) {
      out.write(line);
      if (this.lastLevel >= pino.levels.values.warn!) flush();
      else timer ??= setTimeout(flush, LINE_FLUSH_MS).unref();
    },
    end() {
      flushSync();
      process.removeListener('exit', flushSync);
      out.end();
    },
  } as LineBatch & { lastLevel: number };
}

/** pino-pretty as a stream in this thread (it is a dev dependency: absent, plain JSON lines). */
function prettyLogger(options: pino.LoggerOptions): Logger | null {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pretty = require('pino-pretty') as (o: object) => NodeJS.WritableStream;
    return pino(options, pretty({ sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }));
  } catch {
    return null;
  }
}
