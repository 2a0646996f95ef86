/**
 * Interleaved measurement for Patchbay's benchmarks: paths compared in the same run, round by round,
 * so drift on a shared machine (GC, CPU frequency, other work) hits every path alike; each result is a
 * per-round figure with its spread, and a comparison is the per-round ratio, never a time alone.
 */

/** One path's figures: per round, the median wall time of a call and the CPU time per call. */
export interface PathFigures {
  /** Median wall time of one call in each round, in microseconds. */
  medianUsPerRound: number[];
  /** Process CPU time (user + system) per call in each round, in microseconds. */
  cpuUsPerRound: number[];
}

/** A figure over the rounds: the median and the lowest and highest round. */
export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** Options of {@link measureInterleaved}. */
export interface InterleavedOptions {
  /** Calls of each path before measuring (JIT, caches). Default 200. */
  warmup?: number;
  /** Rounds; each runs every path in turn, the order rotating. Default 10. */
  rounds?: number;
  /** Calls of each path per round. Default 200. */
  perRound?: number;
}

/** The median of some figures (the mean of the middle two for an even count). */
export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The median and range of per-round figures, rounded to `digits` decimals. */
export function spreadOf(values: readonly number[], digits = 3): Spread {
  return {
    median: round(median(values), digits),
    min: round(Math.min(...values), digits),
    max: round(Math.max(...values), digits),
  };
}

/** Per-round ratios `path / peer` of two paths' figures, as a spread. */
export function ratioOf(path: readonly number[], peer: readonly number[], digits = 3): Spread {
  return spreadOf(
    path.map((value, index) => value / peer[index]!),
    digits,
  );
}

/**
 * Runs every path `warmup` times, then `rounds` rounds in which each path makes `perRound` calls (the
 * order of the paths rotating from round to round); returns each path's per-round figures.
 */
export async function measureInterleaved(
  paths: Readonly<Record<string, () => Promise<unknown>>>,
  options: InterleavedOptions = {},
): Promise<Record<string, PathFigures>> {
  const warmup = options.warmup ?? 200;
  const rounds = options.rounds ?? 10;
  const perRound = options.perRound ?? 200;
  const names = Object.keys(paths);
  const figures: Record<string, PathFigures> = Object.fromEntries(
    names.map((name) => [name, { medianUsPerRound: [], cpuUsPerRound: [] }]),
  );
  for (const name of names) for (let index = 0; index < warmup; index += 1) await paths[name]!();
  for (let roundIndex = 0; roundIndex < rounds; roundIndex += 1) {
    const order = names.map((_, index) => names[(index + roundIndex) % names.length]!);
    for (const name of order) {
      const call = paths[name]!;
      const times: number[] = [];
      const cpuBefore = process.cpuUsage();
      for (let index = 0; index < perRound; index += 1) {
        const started = performance.now();
        await call();
        times.push((performance.now() - started) * 1000);
      }
      const cpu = process.cpuUsage(cpuBefore);
      figures[name]!.medianUsPerRound.push(median(times));
      figures[name]!.cpuUsPerRound.push((cpu.user + cpu.system) / perRound);
    }
  }
  return figures;
}

export {
  type BenchIssue,
  benchGetIssue,
  benchReadTool,
  benchReply,
  benchTurnScript,
  createBenchTracker,
} from './bench-turn.js';
