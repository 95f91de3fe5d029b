import { DomainError } from '@/lib/platform/errors';
import { processSlot } from '@/lib/process-state';

/**
 * Turns per shopper for reads that cost more than a lookup (the products list: searches,
 * sorts, filters, facets). The read budget counts requests per minute, which says nothing
 * about how many run at once: a shopper who opens many connections would take as many
 * turns of the event loop as they like, and everyone else's reads would wait behind theirs.
 * Here one shopper (Site-Buyer-IP) has at most IN_FLIGHT such reads running in this
 * process; the next ones wait in line (first come, first served), and past QUEUE waiting
 * the answer is 429 at once. Requests that name no shopper are not held here (the
 * credential's own budgets apply).
 */
const IN_FLIGHT = 2;
const QUEUE = 8;

type Line = { running: number; waiting: (() => void)[] };
const lines = processSlot('shopperTurns', () => new Map<string, Line>());

export async function inShopperTurn<T>(shopper: string | null, work: () => Promise<T>): Promise<T> {
  if (shopper === null) return work();
  let line = lines.get(shopper);
  if (!line) lines.set(shopper, (line = { running: 0, waiting: [] }));
  if (line.running >= IN_FLIGHT) {
    if (line.waiting.length >= QUEUE) {
      throw new DomainError('rate_limited', `This shopper has ${IN_FLIGHT} list reads running and ${QUEUE} waiting. Retry in 1 s.`, {
        headers: { 'Retry-After': '1' },
      });
    }
    await new Promise<void>((resolve) => line.waiting.push(resolve));
  } else line.running += 1;
  try {
    return await work();
  } finally {
    const next = line.waiting.shift();
    // The turn passes to the next in line; the last one out forgets the shopper.
    if (next) next();
    else if (--line.running === 0) lines.delete(shopper);
  }
}

/** How many shoppers hold or wait for a turn (tests). */
export function shoppersInLine(): number {
  return lines.size;
}
