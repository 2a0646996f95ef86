import { describe, expect, it } from 'vitest';
import { createTestServer } from './test-server.js';

// A connector test file often has a file-level server and runs the conformance suite, which
// starts its own: the two must not break each other.
const outer = createTestServer({
  'https://api.example.test/who': { body: { from: 'outer' } },
  'https://api.example.test/outer-only': { body: { from: 'outer' } },
});

describe('an inner server', () => {
  const inner = createTestServer({ 'https://api.example.test/who': { body: { from: 'inner' } } });

  it('takes precedence while both listen, and the outer routes stay reachable', async () => {
    expect(await (await fetch('https://api.example.test/who')).json()).toEqual({ from: 'inner' });
    expect(await (await fetch('https://api.example.test/outer-only')).json()).toEqual({ from: 'outer' });
    expect(inner.calls.map((request) => request.url)).toEqual(['https://api.example.test/who']);
    expect(outer.calls.map((request) => request.url)).toEqual(['https://api.example.test/outer-only']);
  });
});

it('leaves the outer server intercepting after the inner one closed', async () => {
  expect(await (await fetch('https://api.example.test/who')).json()).toEqual({ from: 'outer' });
});
