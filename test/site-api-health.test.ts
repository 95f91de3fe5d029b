import { afterEach, describe, expect, it, vi } from 'vitest';

// lib/site-client is server-only; this test is the server.
vi.mock('server-only', () => ({}));
const probes = vi.hoisted(() => ({ count: 0, fail: false }));
vi.mock('@/lib/site-client/catalog', () => ({
  fetchSite: async () => {
    probes.count += 1;
    if (probes.fail) throw new Error('the API does not answer');
    return {};
  },
}));

// Whether the API answers, as the proxy asks before a shop page: a probe at most once a
// second, and none while the proxy's own in-process reads of the API's database answer.

describe('the API health the proxy checks', () => {
  afterEach(() => vi.useRealTimers());

  it('probes once a second, not while the page key’s reads answer for it, and never ends a failure without a probe', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { siteApiAnswers, noteApiAnswered, noteApiFailure } = await import('@/lib/site-client/health');
    expect(await siteApiAnswers()).toBe(true);
    expect(probes.count).toBe(1);

    // Stale: answered at once, checked again in the background.
    vi.advanceTimersByTime(1500);
    expect(await siteApiAnswers()).toBe(true);
    await vi.waitFor(() => expect(probes.count).toBe(2));

    // The page key read the credential and its Site in-process: no probe for another second.
    vi.advanceTimersByTime(1500);
    noteApiAnswered();
    expect(await siteApiAnswers()).toBe(true);
    expect(probes.count).toBe(2);

    // A failure noted stays until a probe finds the API answering again.
    probes.fail = true;
    noteApiFailure();
    noteApiAnswered();
    expect(await siteApiAnswers()).toBe(false);
    expect(probes.count).toBe(3);
    probes.fail = false;
    vi.advanceTimersByTime(1500);
    expect(await siteApiAnswers()).toBe(true);
    expect(probes.count).toBe(4);
  });
});
