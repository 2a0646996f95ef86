import type { StoredMessage, StoredMessagePart, ThreadStore } from '@patchbay/connector/ports';
import { describe, expect, it } from 'vitest';
import { type Awaitable, type HarnessLifecycle, together, useHarness } from './contract-harness.js';

/** A {@link ThreadStore} under test. */
export interface ThreadStoreHarness extends HarnessLifecycle {
  /** The implementation under test, empty. */
  threads: ThreadStore;
  /**
   * Another handle on the same data, as a second process would open it. Without it the tests
   * that need one are reported as skipped. `close` closes it too.
   */
  reopen?: () => Awaitable<ThreadStore>;
}

/** Message parts with the fields of their kind, which the port leaves open. */
const parts = (...list: (StoredMessagePart & Record<string, unknown>)[]): StoredMessagePart[] => list;

/** A stamped user message, as `runTurn` stores one. */
const userMessage = (text: string, sentAt = '2026-11-21T15:00:00Z'): StoredMessage => ({
  role: 'user',
  content: parts({ type: 'text', text: `[${sentAt}]` }, { type: 'text', text }),
});

/** A plain message whose text names where it came from, so order can be checked. */
const numbered = (label: string): StoredMessage => ({ role: 'assistant', content: label });

/** A short conversation with every role and part kind a turn stores. */
const conversation: StoredMessage[] = [
  { role: 'system', content: '[2026-11-21T15:00:00Z] Connector status: tracker connected.' },
  userMessage('What is open in WEB? Ünïcødé and "quotes" survive.'),
  {
    role: 'assistant',
    content: parts(
      { type: 'text', text: '[2026-11-21T15:00:01Z]' },
      { type: 'tool-call', toolCallId: 'call-1', toolName: 'tracker_list_issues', input: { project: 'WEB' } },
    ),
  },
  {
    role: 'tool',
    content: parts({
      type: 'tool-result',
      toolCallId: 'call-1',
      toolName: 'tracker_list_issues',
      output: {
        type: 'json',
        value: { ok: true, data: [{ key: 'WEB-7', title: 'Flaky login', open: true }] },
      },
    }),
  },
  { role: 'assistant', content: 'WEB has one open issue: WEB-7.' },
];

const texts = (messages: readonly StoredMessage[] | undefined) =>
  (messages ?? []).map((message) => message.content as string);
const batchSize = 3;
const batch = (writer: string, index: number) =>
  Array.from({ length: batchSize }, (_, part) => numbered(`${writer}:${index}:${part}`));

/** Checks that every batch of `batch()` landed once, as one contiguous run in its own order. */
function expectContiguousBatches(stored: string[], writers: readonly string[], perWriter: number): void {
  expect(stored).toHaveLength(writers.length * perWriter * batchSize);
  for (let position = 0; position < stored.length; position += batchSize) {
    const [writer, index] = stored[position]!.split(':');
    expect(stored.slice(position, position + batchSize)).toEqual(
      Array.from({ length: batchSize }, (_, part) => `${writer}:${index}:${part}`),
    );
  }
  expect([...stored].sort()).toEqual(
    writers
      .flatMap((writer) => Array.from({ length: perWriter }, (_, index) => texts(batch(writer, index))))
      .flat()
      .sort(),
  );
}

/**
 * Registers the contract every {@link ThreadStore} meets: a thread reads back exactly the messages
 * appended to it, in append order, each append one contiguous run, none lost when appends overlap,
 * and no thread sees another's messages. `setup` runs before each test (a fresh, empty store) and
 * the harness's `close` after it.
 */
export function describeThreadStoreContract(name: string, setup: () => Awaitable<ThreadStoreHarness>): void {
  describe(`ThreadStore contract: ${name}`, () => {
    const harness = useHarness(setup);

    it('answers undefined for a thread with no messages', async () => {
      expect(await harness().threads.load('thread-unknown')).toBeUndefined();
    });

    it('reads back exactly the messages appended, every role and part kind, under the thread id', async () => {
      const { threads } = harness();
      await threads.append('support-42', conversation);
      expect(await threads.load('support-42')).toEqual({ id: 'support-42', messages: conversation });
    });

    it('puts each append after the previous ones, as one contiguous run', async () => {
      const { threads } = harness();
      await threads.append('t1', [numbered('a'), numbered('b')]);
      await threads.append('t1', [numbered('c')]);
      await threads.append('t1', [numbered('d'), numbered('e'), numbered('f')]);
      expect(texts((await threads.load('t1'))?.messages)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    });

    it('keeps threads apart', async () => {
      const { threads } = harness();
      await threads.append('t1', [numbered('one-a')]);
      await threads.append('t2', [numbered('two-a')]);
      await threads.append('t1', [numbered('one-b')]);
      expect(texts((await threads.load('t1'))?.messages)).toEqual(['one-a', 'one-b']);
      expect(texts((await threads.load('t2'))?.messages)).toEqual(['two-a']);
    });

    it('creates no thread for an empty append', async () => {
      const { threads } = harness();
      await threads.append('t1', []);
      expect(await threads.load('t1')).toBeUndefined();
      await threads.append('t2', [numbered('a')]);
      await threads.append('t2', []);
      expect(texts((await threads.load('t2'))?.messages)).toEqual(['a']);
    });

    it('hands out copies, so changing appended or loaded messages rewrites no history', async () => {
      const { threads } = harness();
      const appended = structuredClone(conversation);
      await threads.append('t1', appended);
      (appended[1]!.content as { type: string; text?: string }[])[1]!.text = 'changed';
      appended.push(numbered('pushed'));
      const loaded = await threads.load('t1');
      loaded!.messages.pop();
      (loaded!.messages[0] as { content: string }).content = 'changed';
      expect((await threads.load('t1'))?.messages).toEqual(conversation);
    });

    it('loses no message and splits no append when appends to one thread overlap', async () => {
      const { threads } = harness();
      const perWriter = 10;
      await Promise.all(
        ['a', 'b', 'c'].map((writer) =>
          together(perWriter, (index) => threads.append('shared', batch(writer, index))),
        ),
      );
      expectContiguousBatches(texts((await threads.load('shared'))?.messages), ['a', 'b', 'c'], perWriter);
    });

    it('keeps every append when two handles on the same data append at once', async (context) => {
      const { threads, reopen } = harness();
      if (!reopen) return context.skip('the implementation offers no second handle');
      const other = await reopen();
      const perWriter = 10;
      await Promise.all([
        together(perWriter, (index) => threads.append('shared', batch('a', index))),
        together(perWriter, (index) => other.append('shared', batch('b', index))),
      ]);
      expectContiguousBatches(texts((await other.load('shared'))?.messages), ['a', 'b'], perWriter);
      expect(await threads.load('shared')).toEqual(await other.load('shared'));
    });
  });
}
