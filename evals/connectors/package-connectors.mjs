// The real connector packages, for scenarios that name them in `packages:`. Their code runs
// unchanged against the service server (./service-server.mjs); the harness (@patchbay/eval's runner)
// logs which tools ran, for every connector alike.
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
