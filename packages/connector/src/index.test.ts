// The contract's surface, pinned: a connector author reads it in one sitting, so it stays small
// (under 40 names, types included) and holds no helper an implementation merely calls — those live
// in @patchbay/helpers. Adding a name here is an API decision for review, with a changeset.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every name an entry file exports, types included, read from its `export { … }` lists. */
function exportedNames(file: string): string[] {
  const text = readFileSync(join(import.meta.dirname, file), 'utf8');
  return [...text.matchAll(/export (?:type )?\{([^}]*)\}/g)]
    .flatMap((match) => (match[1] ?? '').split(','))
    .map((name) => name.replace(/^\s*type\s+/, '').trim())
    .filter(Boolean)
    .sort();
}

describe('@patchbay/connector: public surface', () => {
  it('the contract entry exports fewer than 40 names, types included', () => {
    const names = exportedNames('index.ts');
    expect(names.length).toBeGreaterThan(20);
    expect(names.length).toBeLessThan(40);
  });

  it('its runtime names are the definition functions, the rules a definition is held to, the vocabularies and verifyFailure', async () => {
    const runtime = Object.keys(await import('./index.js')).sort();
    expect(runtime).toEqual([
      'connectorDefinitionSchema',
      'connectorManifest',
      'connectorStatuses',
      'defineConnector',
      'defineTool',
      'isTool',
      'questionForField',
      'statusSnapshotSchema',
      'toolDefinitionSchema',
      'toolEffects',
      'undescribedFields',
      'verifyFailure',
    ]);
  });

  it('the ports subpath exports the port types and the readers over them only', async () => {
    const runtime = Object.keys(await import('./ports/index.js')).sort();
    expect(runtime).toEqual(['isWatchable', 'loadConnectorState', 'messageSentAt', 'narrowState']);
  });
});
