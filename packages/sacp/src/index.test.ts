// The runtime names the package entry exports, pinned. A helper exported "because a test needed it"
// becomes a promise to every user; adding a name here is a decision about the public API, to be made
// in review (with a changeset), not a side effect of an edit to index.ts. Tests import internals from
// their modules instead.
import { describe, expect, it } from 'vitest';

describe('@patchbay/sacp: public surface', () => {
  it('exports exactly the chain API, the parser, the prompt, guardrails, audit logs and the reply schema', async () => {
    const runtime = Object.keys(await import('./index.js'))
      .filter((name) => name !== 'default')
      .sort();
    expect(runtime).toEqual([
      'buildReaskInstruction',
      'createJsonlAuditLog',
      'createMemoryAuditLog',
      'createMemoryResumeLedger',
      'defineChain',
      'interventionGuardrail',
      'isSacpReply',
      'isSacpStatus',
      'parseSacp',
      'redactionGuardrail',
      'sacpReplySchema',
      'sacpStatusSchema',
      'sacpStatuses',
      'withSacpProtocol',
    ]);
  });

  it('keeps the orchestrator subpath to the turn runner alone', async () => {
    const runtime = Object.keys(await import('./orchestrator/index.js'))
      .filter((name) => name !== 'default')
      .sort();
    expect(runtime).toEqual(['turnAgentRunner']);
  });
});
