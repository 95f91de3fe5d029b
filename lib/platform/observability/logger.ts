import pino, { type Logger } from 'pino';
import { processSlot } from '@/lib/process-state';

/**
 * The process's logger: one JSON line per event on stdout, written synchronously (no worker
 * thread: pino's transports run one, which Next's server bundles cannot load), so a line
 * is out before the process can die. Under `next dev` the lines are made readable by
 * pino-pretty, in this thread too. LOG_LEVEL (docs/operating.md) picks the least severe
 * level written: trace, debug, info (the default), warn, error, fatal or silent.
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

function makeLogger(): Logger {
  // Read here rather than through env(): a bad LOG_LEVEL must not keep the line that says
  // the environment is invalid from being written.
  const wanted = process.env.LOG_LEVEL?.trim().toLowerCase();
  const level = wanted && (LOG_LEVELS as readonly string[]).includes(wanted) ? wanted : 'info';
  const options: pino.LoggerOptions = {
    level,
    // No pid or host name on every line: the platform's log already says where it came from.
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // The error's stack goes into its line as one JSON string: nowhere else.
    serializers: { err: pino.stdSerializers.err },
  };
  const made = process.env.NODE_ENV === 'development' ? prettyLogger(options) : null;
  const log = made ?? pino(options, pino.destination({ dest: 1, sync: true }));
  if (wanted && !(LOG_LEVELS as readonly string[]).includes(wanted)) {
    log.warn(`LOG_LEVEL ${JSON.stringify(wanted)} is not one of ${LOG_LEVELS.join(', ')}; logging at info`);
  }
  return log;
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
