import { beforeAll, describe, expect, it } from 'vitest';
import { childRunTimeoutMs, type FixtureOutcome, runChildVitest } from '../test/child-vitest-run.js';

let outcome: (fixture: string) => FixtureOutcome;

// The port contract suites run against a correct reference implementation of each port and
// against copies of it with one defect each (test-fixtures/contracts/), in a child vitest process,
// so the broken ones' failures are observed here instead of failing this package's own run.
beforeAll(async () => {
  outcome = await runChildVitest('test-fixtures/contracts/vitest.config.ts');
}, childRunTimeoutMs);

describe('the port contract suites', () => {
  it('pass every test, the second-handle ones included, on correct implementations', () => {
    const { failed, passed, skipped } = outcome('reference.fixture.ts');
    expect(failed).toEqual([]);
    expect(skipped).toBe(0);
    expect(passed).toBe(48);
  });
});

describe('the StatusSource contract catches', () => {
  it('a source that keeps rate limits per connector, leaking them across subjects', () => {
    const { failed, passed } = outcome('status-leaks-across-subjects.fixture.ts');
    expect(failed).toEqual([
      'answers a per-connector lookup with what load says about those connectors',
      'keeps each subject’s connections, rate limits and credential errors to that subject',
    ]);
    expect(passed).toBe(12);
  });

  it('a per-connector lookup that forgets admin policy', () => {
    const { failed, passed } = outcome('status-lookup-ignores-policy.fixture.ts');
    expect(failed).toEqual(['answers a per-connector lookup with what load says about those connectors']);
    expect(passed).toBe(13);
  });
});

describe('the ProposalStore contract catches', () => {
  it('a transition that reads and then writes instead of comparing and setting', () => {
    const { failed, passed } = outcome('proposal-not-compare-and-set.fixture.ts');
    expect(failed).toEqual(
      [
        'lets exactly one of 12 concurrent approvals win, and stores the winner’s decision',
        'runs an approval once: exactly one of 12 concurrent executions wins',
        'lets exactly one of two handles on the same data win an approval',
      ].sort(),
    );
    expect(passed).toBe(11);
  });

  it('an execution that keeps the approval’s MAC, so a row set back to approved replays it', () => {
    const { failed, passed } = outcome('proposal-executed-keeps-approval.fixture.ts');
    expect(failed).toEqual([
      'keeps the approval’s MAC while approved and drops it once executed or pending again',
    ]);
    expect(passed).toBe(13);
  });
});

describe('the ThreadStore contract catches', () => {
  it('a store that loads the newest append first', () => {
    const { failed, passed } = outcome('thread-reorders.fixture.ts');
    expect(failed).toEqual([
      'keeps threads apart',
      'puts each append after the previous ones, as one contiguous run',
    ]);
    expect(passed).toBe(6);
  });

  it('a store whose append rewrites the whole thread, losing overlapping appends', () => {
    const { failed, passed } = outcome('thread-loses-overlapping-appends.fixture.ts');
    expect(failed).toEqual([
      'keeps every append when two handles on the same data append at once',
      'loses no message and splits no append when appends to one thread overlap',
    ]);
    expect(passed).toBe(6);
  });
});

describe('the Checkpointer contract catches', () => {
  it('a delete that forgets every thread’s checkpoint', () => {
    const { failed, passed } = outcome('checkpointer-delete-clears-all.fixture.ts');
    expect(failed).toEqual(['keeps each thread’s checkpoint to that thread']);
    expect(passed).toBe(6);
  });
});

describe('the AuditSink contract catches', () => {
  it('a sink that replaces an entry of the same event instead of appending', () => {
    const { failed, passed } = outcome('audit-overwrites.fixture.ts');
    expect(failed).toEqual(
      [
        'keeps entries in the order they were appended, with their fields',
        'keeps what was appended unchanged by later appends or by the caller changing its object',
        'keeps every entry exactly once when appends overlap',
      ].sort(),
    );
    expect(passed).toBe(2);
  });

  it('a sink that offers a way to erase history', () => {
    const { failed, passed } = outcome('audit-can-clear.fixture.ts');
    expect(failed).toEqual(['offers no method that rewrites or drops an entry']);
    expect(passed).toBe(4);
  });
});

describe('the WatchableStatusSource contract', () => {
  it('passes on a correct in-memory implementation', () => {
    const { failed, passed, skipped } = outcome('watchable-reference.fixture.ts');
    expect(failed).toEqual([]);
    expect(skipped).toBe(0);
    expect(passed).toBe(6);
  });

  it('catches a source that announces only the writes of its own handle', () => {
    const { failed, passed } = outcome('watchable-hears-own-writes-only.fixture.ts');
    expect(failed.length).toBe(6);
    expect(passed).toBe(0);
  });
});
