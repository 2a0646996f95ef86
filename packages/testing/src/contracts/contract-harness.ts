import { afterEach, beforeEach } from 'vitest';

/** A value or a promise of it: setup and teardown may be synchronous or not. */
export type Awaitable<Value> = Value | Promise<Value>;

/** What every contract harness may offer besides its port. */
export interface HarnessLifecycle {
  /** Releases what setup opened (a database handle, a temporary directory); called after each test. */
  close?: () => Awaitable<void>;
}

/**
 * Creates a fresh harness before each test of the enclosing `describe` and closes it after, so no
 * test sees another's data. Returns a getter for the current test's harness.
 */
export function useHarness<Harness extends HarnessLifecycle>(setup: () => Awaitable<Harness>): () => Harness {
  let current: Harness | undefined;
  beforeEach(async () => {
    current = await setup();
  });
  afterEach(async () => {
    const finished = current;
    current = undefined;
    await finished?.close?.();
  });
  return () => {
    if (!current) throw new Error('the contract harness is used outside a test');
    return current;
  };
}

/** Settles the given operations at once, as concurrent callers in one process would start them. */
export function together<Value>(
  count: number,
  operation: (index: number) => Promise<Value>,
): Promise<Value[]> {
  return Promise.all(Array.from({ length: count }, (_, index) => operation(index)));
}
