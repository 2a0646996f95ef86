import { type Envelope, renderEnvelopeForModel } from '@patchbay/envelope';
import { mcpContentMetaKey } from '../client/call-result.js';
import { type CallToolResult, type ContentBlock, ContentBlockSchema } from '../sdk.js';

/** `_meta` key carrying a caller's correlation id on `tools/call` (and echoed on the result). */
export const correlationIdMetaKey = 'patchbay/correlation_id';

/**
 * Content blocks an MCP server answered besides text (see `envelopeFromResult`), each checked
 * against the MCP schema: a malformed block would make the host reject the whole result.
 */
function mediaOf(envelope: Envelope): { blocks: ContentBlock[]; rest: Envelope } {
  const meta = envelope.meta as Record<string, unknown> | undefined;
  const carried = meta?.[mcpContentMetaKey];
  if (meta === undefined || !Array.isArray(carried)) return { blocks: [], rest: envelope };
  const { [mcpContentMetaKey]: _carried, ...otherMeta } = meta;
  const blocks = carried.flatMap((block: unknown) => {
    const parsed = ContentBlockSchema.safeParse(block);
    return parsed.success && parsed.data.type !== 'text' ? [parsed.data] : [];
  });
  const rest = { ...envelope, meta: otherMeta } as Envelope;
  if (Object.keys(otherMeta).length === 0) delete rest.meta;
  return { blocks, rest };
}

/**
 * The MCP result of an envelope: the envelope as structured content and, as the first text block,
 * its model rendering; an upstream server's images, audio and resources follow as MCP content, so a
 * host shows or attaches them instead of the model reading base64. `echoCorrelationId`: the host
 * gave a correlation id in `_meta`, so it hears it back there too.
 */
export function toCallToolResult(envelope: Envelope, echoCorrelationId = false): CallToolResult {
  const { blocks, rest } = mediaOf(envelope);
  // Echoed in `_meta` only to a host that sent one; the envelope's own meta carries it always.
  const correlationId = echoCorrelationId ? rest.meta?.correlation_id : undefined;
  return {
    content: [{ type: 'text', text: renderEnvelopeForModel(rest) }, ...blocks],
    structuredContent: rest as unknown as Record<string, unknown>,
    isError: !rest.ok,
    ...(correlationId === undefined ? {} : { _meta: { [correlationIdMetaKey]: correlationId } }),
  };
}
