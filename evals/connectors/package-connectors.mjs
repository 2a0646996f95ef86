// The real connector packages, for scenarios that name them in `packages:`. Their code runs
// unchanged against the service server (./service-server.mjs); the only eval addition is a log of
// which tools ran, the same record the stand-in connectors keep for the side-effect checks.
import { github } from '@patchbay/connector-github';
import { slack } from '@patchbay/connector-slack';

/** The real connectors a scenario may name in `packages:`, by id. */
export const packageConnectors = { github, slack };
const packages = packageConnectors;

/** Package ids a scenario may name in `packages:`. */
export const packageConnectorIds = Object.keys(packages);

/** The named real connectors, each tool logging `{ tool, input }` to `log` when it runs. */
export function createPackageConnectors(ids, log = []) {
  return ids.map((id) => {
    const connector = packages[id];
    if (!connector)
      throw new Error(`no connector package "${id}" (known: ${packageConnectorIds.join(', ')})`);
    return {
      ...connector,
      tools: connector.tools.map((tool) => ({
        ...tool,
        execute: (input, context) => {
          log.push({ tool: tool.name, input });
          return tool.execute(input, context);
        },
      })),
    };
  });
}
