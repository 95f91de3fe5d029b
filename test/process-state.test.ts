// Next gives each bundle its own copy of a module: the process's named state must still be
// one value per slot, whichever copy asks.
import { describe, expect, it, vi } from 'vitest';

describe('processSlot', () => {
  it('gives every copy of the module the one value of a slot, made once', async () => {
    const first = await import('@/lib/process-state');
    vi.resetModules();
    const second = await import('@/lib/process-state');
    expect(second).not.toBe(first);
    let made = 0;
    const a = first.processSlot('shopperTurns', () => ({ made: ++made }));
    const b = second.processSlot('shopperTurns', () => ({ made: ++made }));
    expect(b).toBe(a);
    expect(made).toBe(1);
  });

  it('names why each slot is process-wide and who writes it', async () => {
    const { PROCESS_SLOTS } = await import('@/lib/process-state');
    for (const [slot, why] of Object.entries(PROCESS_SLOTS)) expect(why, slot).toMatch(/\((?:lib|db)\/[\w/.-]+\.ts\)/);
  });
});
