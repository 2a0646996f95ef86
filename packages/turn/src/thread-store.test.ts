import { describeThreadStoreContract } from '@patchbay/testing';
import { describe, expect, it } from 'vitest';
import { createInMemoryThreadStore } from './thread-store.js';

describeThreadStoreContract('in-memory', () => ({ threads: createInMemoryThreadStore() }));

describe('createInMemoryThreadStore', () => {
  it('starts from the given threads, copied', async () => {
    const initial = [{ id: 't1', messages: [{ role: 'user' as const, content: 'hi' }] }];
    const threads = createInMemoryThreadStore(initial);
    initial[0]!.messages.push({ role: 'user', content: 'changed' });
    expect(await threads.load('t1')).toEqual({ id: 't1', messages: [{ role: 'user', content: 'hi' }] });
  });
});
