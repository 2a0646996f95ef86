import type { JsonSchema } from '@patchbay/connector';

/** A tool the protocol itself provides rather than a connector. */
export interface MetaToolDefinition {
  readonly kind: 'meta';
  readonly name: string;
  readonly description: string;
  readonly inputJsonSchema: JsonSchema;
}

/** Name of the meta-tool that returns a freshly captured connector status. */
export const refreshConnectorStatusToolName = 'refresh_connector_status';

/**
 * The `refresh_connector_status` meta-tool: no arguments; the host answers it by capturing status
 * again and returning the rendered connector status JSON.
 */
export const refreshConnectorStatusTool: MetaToolDefinition = Object.freeze({
  kind: 'meta',
  name: refreshConnectorStatusToolName,
  description:
    'Capture the connector status again and return it. Use it when the user asks you to check a connection, ' +
    'says they just connected or fixed one, or before an important action when the status may have changed.',
  inputJsonSchema: Object.freeze({ type: 'object', properties: {}, additionalProperties: false }),
});

/** Narrows a tool to a protocol meta-tool. */
export function isMetaTool(tool: { name: string }): tool is MetaToolDefinition {
  return (tool as Partial<MetaToolDefinition>).kind === 'meta';
}
