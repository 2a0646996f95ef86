// The real connector packages, for scenarios that name them in `packages:`. Their code runs
// unchanged against the service server (./service-server.mjs); the only eval addition is a log of
// which tools ran, the same record the stand-in connectors keep for the side-effect checks.
import { discord } from '@patchbay/connector-discord';
import { email } from '@patchbay/connector-email';
import { github } from '@patchbay/connector-github';
import { createJira } from '@patchbay/connector-jira';
import { linear } from '@patchbay/connector-linear';
import { notion } from '@patchbay/connector-notion';
import { slack } from '@patchbay/connector-slack';
import { sms } from '@patchbay/connector-sms';

/**
 * The real connectors a scenario may name in `packages:`, by id: all eight. Jira Cloud has no
 * default site, so it gets the fixtures' site; every other one runs with its defaults.
 */
export const packageConnectors = {
  github,
  slack,
  discord,
  email,
  jira: createJira({ baseUrl: 'https://acme.atlassian.net' }),
  linear,
  notion,
  sms,
};
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
