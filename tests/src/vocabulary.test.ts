// One source per vocabulary, the rest checked. `errorTypes` in `@patchbay/envelope` is the list of
// envelope error types; the compiler holds the code that switches over it (constructors' defaults,
// the user renderer, the error codes), and this file holds what it cannot see: the system prompt's
// explanation, the envelope README's table, docs/architecture.md's list and the eval scenario format.
// A new type once touched ~11 files, six of them caught by neither compiler nor test (issue 35).
// `connectorStatuses` in `@patchbay/connector` is the list of connector statuses; the types that
// re-listed them (the status block's wire shape) derive from it, and this file holds the prose: the
// system prompt's explanation, the contract README and docs/architecture.md's wire shape.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connectorStatuses } from '@patchbay/connector';
import { errorDefaults, errorTypeOfCode, errorTypes } from '@patchbay/envelope';
import { buildSystemPrompt, protocolBlocks } from '@patchbay/protocol';
import { describe, expect, it } from 'vitest';
import { root } from './workspace.js';

/**
 * The eval harness's check of one envelope. Its internals subpath is plain JavaScript without types
 * (being moved to TypeScript): a computed specifier keeps the compiler from asking for them.
 */
async function evalEnvelopeCheck(): Promise<{ safeParse(value: unknown): { success: boolean } }> {
  const specifier = '@patchbay/eval/internal';
  const internals = (await import(specifier)) as {
    envelopeCheckSchema: { safeParse(value: unknown): { success: boolean } };
  };
  return internals.envelopeCheckSchema;
}

/** The error types a text names in double quotes, as the prompt blocks write them. */
function quotedTypesIn(text: string): string[] {
  return errorTypes.filter((type) => text.includes(`"${type}"`));
}

/** The rows of the envelope README's error-type table: type and its "retryable" column. */
function readmeTableRows(readme: string): { type: string; retryable: string }[] {
  const section = readme.split('\n## Error types\n')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/^\| `([a-z_]+)` \|[^|]*\| (yes|no) \|/gm)].map((match) => ({
    type: match[1] ?? '',
    retryable: match[2] ?? '',
  }));
}

/** The backticked names of docs/architecture.md's "`error_type` is one of …" sentence. */
function architectureList(document: string): string[] {
  const sentence = /`error_type` is one of ([^.]*?)\s\(/s.exec(document)?.[1] ?? '';
  return [...sentence.matchAll(/`([a-z_]+)`/g)].map((match) => match[1] ?? '');
}

/** The statuses a text explains as the prompt writes them: a list item that opens with the quoted name. */
function explainedStatusesIn(text: string): string[] {
  return connectorStatuses.filter((status) => text.includes(`- "${status}": `));
}

/** The backticked names of a list that opens with `opening` and ends at the first `closing` after it. */
function listAfter(text: string, opening: string, closing: string): string[] {
  const start = text.indexOf(opening);
  if (start < 0) return [];
  const rest = text.slice(start + opening.length);
  const list = rest.slice(0, rest.indexOf(closing));
  return [...list.matchAll(/`([a-z_]+)`/g)].map((match) => match[1] ?? '');
}

/** docs/architecture.md's wire shape: "**Connector status** (…): `status` is one of … (MCP servers only)". */
const architectureStatuses = (document: string) =>
  listAfter(document, '**Connector status** (one entry per connector id in the block): ', '(MCP').filter(
    (name) => name !== 'status',
  );

/** The contract README's "connector status vocabulary (…)" list. */
const contractReadmeStatuses = (readme: string) => listAfter(readme, 'status vocabulary (', ')');

describe('the error-type vocabulary: one list, every other place checked against it', () => {
  it('reads the list (the checks below would pass on an empty one)', () => {
    expect(errorTypes.length).toBeGreaterThan(10);
    expect(errorTypes).toContain('cancelled');
    expect(errorTypes).toContain('timeout');
  });

  it("the system prompt's error_handling block tells the model what each type means", () => {
    const block = protocolBlocks.error_handling;
    expect(errorTypes.filter((type) => !quotedTypesIn(block).includes(type))).toEqual([]);
    // And that block is what a model is shown.
    expect(buildSystemPrompt({ identity: 'You help.' })).toContain(block);
  });

  it('the envelope README has one table row per type, in order, with its default retryability', () => {
    const readme = readFileSync(join(root, 'packages', 'envelope', 'README.md'), 'utf8');
    const rows = readmeTableRows(readme);
    expect(rows.map((row) => row.type)).toEqual([...errorTypes]);
    for (const { type, retryable } of rows) {
      expect({ type, retryable }).toEqual({
        type,
        retryable: errorDefaults(type as (typeof errorTypes)[number]).retryable ? 'yes' : 'no',
      });
    }
  });

  it("docs/architecture.md's wire-shape list names every type, in order", () => {
    const document = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
    expect(architectureList(document)).toEqual([...errorTypes]);
  });

  it('every type is a PatchbayError code of its own and a value eval scenarios may expect', async () => {
    const envelopeCheckSchema = await evalEnvelopeCheck();
    expect(envelopeCheckSchema.safeParse({ tool: 'any_tool', error_type: 'timed_out' }).success).toBe(false);
    for (const type of errorTypes) {
      expect(errorTypeOfCode(type)).toBe(type);
      expect(envelopeCheckSchema.safeParse({ tool: 'any_tool', error_type: type }).success).toBe(true);
    }
  });

  it('finds a type a place leaves out (the checks themselves work)', () => {
    const withoutCancelled = protocolBlocks.error_handling.replaceAll('"cancelled"', '"stopped"');
    expect(quotedTypesIn(withoutCancelled)).not.toContain('cancelled');
    const table = '\n## Error types\n\n| `timeout` | x | yes | y |\n| `cancelled` | x | no | y |\n';
    expect(readmeTableRows(table)).toEqual([
      { type: 'timeout', retryable: 'yes' },
      { type: 'cancelled', retryable: 'no' },
    ]);
    expect(architectureList('`error_type` is one of `timeout`, `cancelled` (the list).')).toEqual([
      'timeout',
      'cancelled',
    ]);
  });
});

describe('the connector-status vocabulary: one list, every other place checked against it', () => {
  it('reads the list (the checks below would pass on an empty one)', () => {
    expect(connectorStatuses.length).toBeGreaterThan(4);
    expect(connectorStatuses).toContain('connected');
    expect(connectorStatuses).toContain('unavailable');
  });

  it("the system prompt's connector_protocol block tells the model what each status means", () => {
    const block = protocolBlocks.connector_protocol;
    expect(connectorStatuses.filter((status) => !explainedStatusesIn(block).includes(status))).toEqual([]);
    expect(buildSystemPrompt({ identity: 'You help.' })).toContain(block);
  });

  it("docs/architecture.md's wire shape names every status, in order", () => {
    const document = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
    expect(architectureStatuses(document)).toEqual([...connectorStatuses]);
  });

  it('the contract README names every status where it lists the vocabulary, in order', () => {
    const readme = readFileSync(join(root, 'packages', 'connector', 'README.md'), 'utf8');
    expect(contractReadmeStatuses(readme)).toEqual([...connectorStatuses]);
  });

  it('finds a status a place leaves out (the checks themselves work)', () => {
    const withoutUnavailable = protocolBlocks.connector_protocol.replaceAll('- "unavailable": ', '- ');
    expect(explainedStatusesIn(withoutUnavailable)).not.toContain('unavailable');
    expect(
      architectureStatuses(
        '**Connector status** (one entry per connector id in the block): `status` is one of `connected`, or `unavailable` (MCP servers only). `y`',
      ),
    ).toEqual(['connected', 'unavailable']);
    expect(contractReadmeStatuses('the status vocabulary (`connected`, `rate_limited`) and `x`')).toEqual([
      'connected',
      'rate_limited',
    ]);
  });
});
