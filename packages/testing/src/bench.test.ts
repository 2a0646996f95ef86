import { describe, expect, it } from 'vitest';
import { measureInterleaved, ratioOf, spreadOf } from './bench.js';

describe('measureInterleaved', () => {
  it('runs every path the same number of times and reports one figure per round', async () => {
    const counts = { fast: 0, slow: 0 };
    const figures = await measureInterleaved(
      {
        fast: async () => {
          counts.fast += 1;
        },
        slow: async () => {
          counts.slow += 1;
          await new Promise((resolve) => setTimeout(resolve, 1));
        },
      },
      { warmup: 2, rounds: 3, perRound: 4 },
    );
    expect(counts).toEqual({ fast: 14, slow: 14 });
    expect(figures.fast!.medianUsPerRound).toHaveLength(3);
    expect(figures.slow!.cpuUsPerRound).toHaveLength(3);
    // A 1 ms sleep is slower than nothing, whatever the machine is doing.
    expect(ratioOf(figures.slow!.medianUsPerRound, figures.fast!.medianUsPerRound).min).toBeGreaterThan(1);
  });

  it('summarises per-round figures as median and range', () => {
    expect(spreadOf([3, 1, 2, 10])).toEqual({ median: 2.5, min: 1, max: 10 });
    expect(ratioOf([2, 4], [1, 1])).toEqual({ median: 3, min: 2, max: 4 });
  });
});
