import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A bound on the shop pages one process renders at once, with a line for the rest.
 *
 * A page render takes ~20–25 ms of CPU and holds its tree, its API answers and its HTML
 * until they are sent. Past the cores, more renders at once only share the CPU while each
 * holds its memory the longer: 32 shoppers landing on uncached products kept 32 renders
 * alive, and clients that gave up and came back left theirs running, until the heap ran out
 * and the process died. Here a request past the bound waits in line, first come first
 * served; one whose client hung up while waiting is dropped unrendered; and when the line is
 * full a request is refused at once (the caller answers 503 with Retry-After), so a burst
 * costs waiting, never the process.
 */
export class RenderGate {
  private running = 0;
  private readonly line: { req: IncomingMessage; res: ServerResponse; start: () => void }[] = [];

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {}

  get rendering(): number {
    return this.running;
  }

  get waiting(): number {
    return this.line.length;
  }

  /** Starts the request now or when a render ends; false when the line is full (the request is not taken). */
  admit(req: IncomingMessage, res: ServerResponse, start: () => void): boolean {
    if (this.running < this.concurrency) {
      this.run(res, start);
      return true;
    }
    if (this.waiting >= this.maxWaiting) return false;
    this.line.push({ req, res, start });
    return true;
  }

  private run(res: ServerResponse, start: () => void): void {
    this.running++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.running--;
      this.next();
    };
    // 'close' comes once the answer is sent, or when the connection ends before that.
    res.once('close', release);
    try {
      start();
    } catch (error) {
      release();
      throw error;
    }
  }

  private next(): void {
    while (this.running < this.concurrency && this.waiting > 0) {
      const waiter = this.line.shift()!;
      if (waiter.req.socket?.destroyed || waiter.res.destroyed) continue;
      this.run(waiter.res, waiter.start);
    }
  }
}
