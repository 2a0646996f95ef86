import { beforeAll, describe, expect, it } from 'vitest';
import { childRunTimeoutMs, type FixtureOutcome, runChildVitest } from '../test/child-vitest-run.js';

let outcome: (fixture: string) => FixtureOutcome;

/** The suites of the reference fixtures, each a port's contract as its `describe` names it. */
const ports = ['StatusSource', 'ProposalStore', 'ThreadStore', 'Checkpointer', 'AuditSink'] as const;

/**
 * The cases a port's contract suite defines, read from the run of its correct implementation, so
 * adding a case to a suite moves every expectation here with it (no count is written down).
 */
function casesOf(port: (typeof ports)[number] | 'WatchableStatusSource'): string[] {
  const fixture =
    port === 'WatchableStatusSource' ? 'watchable-reference.fixture.ts' : 'reference.fixture.ts';
  return outcome(fixture)
    .cases.filter((test) => test.suite.startsWith(`${port} contract: `))
    .map((test) => test.title)
    .sort();
}

/** Asserts a broken fixture ran exactly its port's cases and passed all but the ones it failed. */
function expectRestPassed(port: Parameters<typeof casesOf>[0], fixture: FixtureOutcome): void {
  const cases = casesOf(port);
  expect(fixture.cases.map((test) => test.title).sort()).toEqual(cases);
  expect(fixture.passedTitles).toEqual(cases.filter((title) => !fixture.failed.includes(title)));
}

// The port contract suites run against a correct reference implementation of each port and
// against copies of it with one defect each (test-fixtures/contracts/), in a child vitest process,
// so the broken ones' failures are observed here instead of failing this package's own run.
beforeAll(async () => {
  outcome = await runChildVitest('test-fixtures/contracts/vitest.config.ts');
}, childRunTimeoutMs);

describe('the port contract suites', () => {
  it('pass every test, the second-handle ones included, on correct implementations', () => {
    const { failed, passed, skipped, cases } = outcome('reference.fixture.ts');
    expect(failed).toEqual([]);
    expect(skipped).toBe(0);
    expect(passed).toBe(cases.length);
    // Every port's suite ran, each with cases of its own.
    for (const port of ports) expect(casesOf(port).length).toBeGreaterThan(1);
  });
});

describe('the StatusSource contract catches', () => {
  it('a source that keeps rate limits per connector, leaking them across subjects', () => {
    const fixture = outcome('status-leaks-across-subjects.fixture.ts');
    const { failed } = fixture;
    expect(failed).toEqual([
      'answers a per-connector lookup with what load says about those connectors',
      'keeps each subject’s connections, rate limits and credential errors to that subject',
    ]);
    expectRestPassed('StatusSource', fixture);
  });

  it('a per-connector lookup that forgets admin policy', () => {
    const fixture = outcome('status-lookup-ignores-policy.fixture.ts');
    const { failed } = fixture;
    expect(failed).toEqual(['answers a per-connector lookup with what load says about those connectors']);
    expectRestPassed('StatusSource', fixture);
  });
});

describe('the ProposalStore contract catches', () => {
  it('a transition that reads and then writes instead of comparing and setting', () => {
    const fixture = outcome('proposal-not-compare-and-set.fixture.ts');
    const { failed } = fixture;
    expect(failed).toEqual(
      [
        'lets exactly one of 12 concurrent approvals win, and stores the winner’s decision',
        'runs an approval once: exactly one of 12 concurrent executions wins',
        'lets exactly one of two handles on the same data win an approval',
      ].sort(),
    );
    expectRestPassed('ProposalStore', fixture);
  });

  it('an execution that keeps the approval’s MAC, so a row set back to approved replays it', () => {
    const fixture = outcome('proposal-executed-keeps-approval.fixture.ts');
    const { failed } = fixture;
    expect(failed).toEqual([
      'keeps the approval’s MAC while approved and drops it once executed or pending again',
    ]);
    expectRestPassed('ProposalStore', fixture);
  });
});

describe('the ThreadStore contract catches', () => {
  it('a store that loads the newest append first', () => {
    const fixture = outcome('thread-reorders.fixture.ts');
    const { failed } = fixture;
    expect(failed).toEqual([
      'keeps threads apart',
      'puts each append after the previous ones, as one contiguous run',
    ]);
    expectRestPassed('ThreadStore', fixture);
  });

  it('a store whose append rewrites the whole thread, losing overlapping appends', () => {
    const fixture = outcome('thread-loses-overlapping-appends.fixture.ts');
    const { failed } = fixture;
    expect(failed).toEqual([
      'keeps every append when two handles on the same data append at once',
      'loses no message and splits no append when appends to one thread overlap',
    ]);
    expectRestPassed('ThreadStore', fixture);
  });
});

describe('the Checkpointer contract catches', () => {
  it('a delete that forgets every thread’s checkpoint', () => {
    const fixture = outcome('checkpointer-delete-clears-all.fixture.ts');
    const { failed } = fixture;
    expect(failed).toEqual(['keeps each thread’s checkpoint to that thread']);
    expectRestPassed('Checkpointer', fixture);
  });
});

describe('the AuditSink contract catches', () => {
  it('a sink that replaces an entry of the same event instead of appending', () => {
    const fixture = outcome('audit-overwrites.fixture.ts');
    const { failed } = fixture;
    expect(failed).toEqual(
      [
        'keeps entries in the order they were appended, with their fields',
        'keeps what was appended unchanged by later appends or by the caller changing its object',
        'keeps every entry exactly once when appends overlap',
      ].sort(),
    );
    expectRestPassed('AuditSink', fixture);
  });

  it('a sink that offers a way to erase history', () => {
    const fixture = outcome('audit-can-clear.fixture.ts');
    const { failed } = fixture;
    expect(failed).toEqual(['offers no method that rewrites or drops an entry']);
    expectRestPassed('AuditSink', fixture);
  });
});

describe('the WatchableStatusSource contract', () => {
  it('passes on a correct in-memory implementation', () => {
    const { failed, passed, skipped, cases } = outcome('watchable-reference.fixture.ts');
    expect(failed).toEqual([]);
    expect(skipped).toBe(0);
    expect(passed).toBe(cases.length);
    expect(casesOf('WatchableStatusSource').length).toBe(cases.length);
  });

  it('catches a source that announces only the writes of its own handle', () => {
    const fixture = outcome('watchable-hears-own-writes-only.fixture.ts');
    // Every case fails: each one listens on another handle than the one that writes.
    expect(fixture.failed).toEqual(casesOf('WatchableStatusSource'));
    expectRestPassed('WatchableStatusSource', fixture);
  });
});
