/** What one pass of a job may use, however it was started. */
export type PassContext = {
  /** A pass starts no new unit of work after this (epoch ms): a cron function has a time limit. */
  deadline: number;
  /** True once the process is shutting the job down. */
  stopped: () => boolean;
  /**
   * This deployment's own front door (an origin), for work done by asking the shop for
   * its pages: loopback under `next start`, the cron request's own origin on a platform.
   */
  frontDoor: string | null;
};

/** What a pass did, for the log line and the cron route's answer. */
export type PassSummary = { [what: string]: number | string | boolean };

/** A job as started: passes share what it opened (a mail connection, what it did last). */
export type JobRunner = { pass: (context: PassContext) => Promise<PassSummary>; close: () => Promise<void> | void };

export type Job = {
  name: string;
  /** Why the job exists, for `npm run job` and the docs. */
  about: string;
  /** Time between passes under `next start`; null: this process does not run it on a timer. */
  everyMs: () => number | null;
  /**
   * A job that waits for work: a count that moves when there is some (read from memory, for
   * free). A timer tick then passes only when it moved, or when `idleEveryMs` went by
   * without a pass, for work that came from elsewhere.
   */
  wake?: { moved: () => number; idleEveryMs: () => number };
  start: () => JobRunner;
};
