import type { Connector, Credentials } from '@patchbay/connector';
import { type Envelope, PatchbayError } from '@patchbay/envelope';
import { callToolAsSubject } from './call-tool-as-subject.js';
import { snapshotFor } from './snapshot-for.js';

/** What {@link callConnectorTool} needs beside the connector, the tool name and the input. */
export interface CallConnectorToolOptions {
  /** Credentials handed to the tool. */
  credentials: Credentials;
  /** Scopes granted to the connection; every declared scope by default. */
  scopes?: readonly string[];
}

/**
 * Calls one tool of a connector by name as a subject for whom the connector is connected, with
 * the connector's setup URL: the usual first line of a connector's own behaviour tests.
 * Throws a `PatchbayError` (`unknown_tool`) when the connector has no tool of that name.
 */
export function callConnectorTool(
  connector: Connector,
  name: string,
  input: unknown,
  options: CallConnectorToolOptions,
): Promise<Envelope> {
  const tool = connector.tools.find((candidate) => candidate.name === name);
  if (!tool) {
    throw new PatchbayError(
      'unknown_tool',
      `callConnectorTool: connector "${connector.id}" has no tool ${name}`,
    );
  }
  return callToolAsSubject(tool, input, {
    snapshot: snapshotFor(connector, 'connected', options.scopes ? { scopes: options.scopes } : {}),
    credentials: options.credentials,
    setupUrl: connector.setupUrl,
  });
}
