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
 * costs waiting, never the process. One shopper (their address) holds at most `perShopper`
 * places in the renders and the line together; the rest of theirs wait behind their own.
 */
export class RenderGate {
  private running = 0;
  private readonly line: { req: IncomingMessage; res: ServerResponse; start: () => void }[] = [];
  /**
   * Per shopper: pages rendering or in the line above (`active`), and their own line behind
   * that. One shopper holds at most `perShopper` places, so a visitor with many connections
   * waits behind their own pages, not everyone else behind theirs.
   */
  private readonly shoppers = new Map<
    string,
    { active: number; line: { req: IncomingMessage; res: ServerResponse; start: () => void; refuse: () => void }[] }
  >();

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
    readonly perShopper = Infinity,
  ) {}

  get rendering(): number {
    return this.running;
  }

  get waiting(): number {
    return this.line.length;
  }

  /** Requests of the shopper waiting behind their own share. */
  waitingOf(shopper: string): number {
    return this.shoppers.get(shopper)?.line.length ?? 0;
  }

  /**
   * Starts the request now or when a render ends; false when the line is full (the request is
   * not taken). With a shopper, past their share the request waits in that shopper's line (of
   * `maxWaiting`, as the other); `refuse` answers it if the main line is full when its turn comes.
   */
  admit(
    req: IncomingMessage,
    res: ServerResponse,
    start: () => void,
    shopper: string | null = null,
    refuse: () => void = () => res.destroy(),
  ): boolean {
    if (shopper === null || this.perShopper === Infinity) return this.enter(req, res, start);
    let mine = this.shoppers.get(shopper);
    if (!mine) this.shoppers.set(shopper, (mine = { active: 0, line: [] }));
    if (mine.active >= this.perShopper) {
      if (mine.line.length >= this.maxWaiting) return false;
      mine.line.push({ req, res, start, refuse });
      return true;
    }
    return this.enterAs(shopper, mine, req, res, start);
  }

  private enterAs(
    shopper: string,
    mine: { active: number; line: { req: IncomingMessage; res: ServerResponse; start: () => void; refuse: () => void }[] },
    req: IncomingMessage,
    res: ServerResponse,
    start: () => void,
  ): boolean {
    if (!this.enter(req, res, start)) {
      if (mine.active === 0 && mine.line.length === 0) this.shoppers.delete(shopper);
      return false;
    }
    mine.active++;
    res.once('close', () => {
      mine.active--;
      while (mine.line.length > 0) {
        const next = mine.line.shift()!;
        if (next.req.socket?.destroyed || next.res.destroyed) continue;
        if (!this.enterAs(shopper, mine, next.req, next.res, next.start)) next.refuse();
        break;
      }
      if (mine.active === 0 && mine.line.length === 0) this.shoppers.delete(shopper);
    });
    return true;
  }

  private enter(req: IncomingMessage, res: ServerResponse, start: () => void): boolean {
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
