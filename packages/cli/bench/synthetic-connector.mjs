// A synthetic connector module for the CLI benchmarks: three tools, like a small real integration.
const connectorUrl = import.meta.resolve('@patchbay/connector');
const envelopeUrl = import.meta.resolve('@patchbay/envelope');
const zodUrl = import.meta.resolve('zod');

/** The source of a connector module `id` with three tools (search, update, delete). */
export function syntheticModule(id) {
  return `import { defineConnector, defineTool } from '${connectorUrl}';
import { success } from '${envelopeUrl}';
import { z } from '${zodUrl}';
const tool = (name, effect, scope) => defineTool({
  name: '${id}_' + name,
  description: 'Synthetic ${id} tool ' + name + ' for the benchmark.',
  input: z.object({ query: z.string().describe('What to look for') }),
  effect,
  requiredScopes: [scope],
  execute: async () => success({}),
});
export function create${id[0].toUpperCase()}${id.slice(1)}(settings = {}) {
  return defineConnector({
    id: '${id}',
    name: 'Synthetic ${id}',
    description: 'A synthetic connector for the CLI benchmark.',
    auth: { kind: 'bearer', scopes: [{ name: 'read', description: 'Read' }, { name: 'write', description: 'Write' }] },
    capabilities: ['search things', 'change things'],
    wouldEnable: ['Work with ${id} from chat'],
    setupUrl: settings.baseUrl ?? 'https://${id}.example/setup',
    tools: [tool('search', 'read', 'read'), tool('update', 'write', 'write'), tool('delete', 'destructive', 'write')],
    verify: async () => ({ valid: true, scopes: ['read', 'write'] }),
  });
}
export const connectorFactory = create${id[0].toUpperCase()}${id.slice(1)};
`;
}
