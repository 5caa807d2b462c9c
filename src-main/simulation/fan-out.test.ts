import { describe, expect, it } from 'vitest';
import { fanOut, fanOutLabel, type FanOutProgress } from './fan-out';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('fanOut', () => {
  it('keeps up to the limit in flight and stores in step order, whatever finishes first', async () => {
    // Later steps finish first: step i takes (10 - i) * 5 ms.
    const items = Array.from({ length: 10 }, (_, i) => i);
    const stored: number[] = [];
    let inFlight = 0;
    let most = 0;
    const outcome = await fanOut(items, {
      limit: 4,
      describe: (i) => `step ${i}`,
      run: async (i, _index, turn) => {
        inFlight++;
        most = Math.max(most, inFlight);
        await sleep((10 - i) * 5);
        inFlight--;
        await turn();
        stored.push(i);
        return i * 10;
      },
    });
    expect(most).toBe(4);
    expect(stored).toEqual(items);
    expect(outcome.results).toEqual(items.map((i) => i * 10));
    expect(outcome.failures).toEqual([]);
  });

  it('runs one at a time at limit 1', async () => {
    let inFlight = 0;
    let most = 0;
    await fanOut([1, 2, 3], {
      limit: 1,
      describe: String,
      run: async () => {
        most = Math.max(most, ++inFlight);
        await sleep(2);
        inFlight--;
      },
    });
    expect(most).toBe(1);
  });

  it('names a failed step and lets the others store, in order, past it', async () => {
    const stored: number[] = [];
    const outcome = await fanOut([0, 1, 2, 3], {
      limit: 4,
      describe: (i) => `step ${i + 1}`,
      run: async (i, _index, turn) => {
        await sleep(i === 1 ? 1 : 10);
        if (i === 1) throw new Error('the server kept answering 503');
        await turn();
        stored.push(i);
        return i;
      },
    });
    expect(stored).toEqual([0, 2, 3]);
    expect(outcome.results).toEqual([0, undefined, 2, 3]);
    expect(outcome.failures).toEqual([{ index: 1, step: 'step 2', message: 'the server kept answering 503' }]);
  });

  it('stops launching when told (a budget) or cancelled, and keeps what finished', async () => {
    let started = 0;
    const budget = await fanOut([0, 1, 2, 3, 4, 5], {
      limit: 2,
      describe: String,
      mayStart: () => started < 3,
      run: async () => {
        started++;
        await sleep(2);
        return 'done';
      },
    });
    expect(budget.results.filter(Boolean)).toHaveLength(3);
    expect(budget.notStarted).toBe(3);

    const controller = new AbortController();
    const cancelled = await fanOut([0, 1, 2, 3, 4, 5], {
      limit: 2,
      signal: controller.signal,
      describe: String,
      run: async (i) => {
        if (i === 1) controller.abort();
        await sleep(2);
        return i;
      },
    });
    expect(cancelled.results.slice(0, 2)).toEqual([0, 1]);
    expect(cancelled.notStarted).toBe(4);
  });

  it('reports finished, in flight and failed steps with a rate', async () => {
    const seen: FanOutProgress[] = [];
    await fanOut([0, 1, 2], {
      limit: 3,
      describe: String,
      onProgress: (p) => seen.push(p),
      run: async (i) => {
        await sleep(5 * (i + 1));
        if (i === 2) throw new Error('no');
      },
    });
    expect(seen.some((p) => p.inFlight === 3)).toBe(true);
    expect(seen.at(-1)).toMatchObject({ done: 2, inFlight: 0, failed: 1, total: 3 });
    expect(seen.at(-1)!.perSecond).toBeGreaterThan(0);
    expect(fanOutLabel({ done: 12, inFlight: 4, failed: 1, total: 20, perSecond: 3.21 })).toBe('12 of 20 steps done · 4 in flight · 1 failed · 3.2/s');
  });
});
