import { it } from 'vitest';
import { createTestServer } from '../src/index.js';

// A test that swallows the failure of a request no route matches must still fail.
createTestServer({ 'GET https://api.example.test/known': { body: {} } });

it('swallows the failure of an unhandled request', async () => {
  await fetch('https://api.example.test/unknown').catch(() => undefined);
});

it('makes only handled requests', async () => {
  await fetch('https://api.example.test/known');
});
