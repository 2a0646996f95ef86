import type { Envelope } from '@patchbay/envelope';
import type { ToolResultPart } from 'ai';

/**
 * The envelope `meta` key under which an MCP tool result keeps its original non-text content blocks
 * (`mcpContentMetaKey` of `@patchbay/mcp`; this package does not depend on it).
 */
const mcpContentKey = 'mcp_content';

/** Most base64 characters of files handed to the model with one tool result (about 3 MB of data). */
export const maxMediaChars = 4_000_000;

type FilePart = { type: 'file'; mediaType: string; data: { type: 'data'; data: string }; filename?: string };

/** A content block of an MCP result as a file the model can take in, or undefined when it is none. */
function fileOf(block: unknown): FilePart | undefined {
  if (typeof block !== 'object' || block === null) return undefined;
  const item = block as { type?: unknown; data?: unknown; mimeType?: unknown; resource?: unknown };
  if ((item.type === 'image' || item.type === 'audio') && typeof item.data === 'string') {
    const mediaType = typeof item.mimeType === 'string' ? item.mimeType : item.type;
    return { type: 'file', mediaType, data: { type: 'data', data: item.data } };
  }
  if (item.type === 'resource' && typeof item.resource === 'object' && item.resource !== null) {
    const resource = item.resource as { blob?: unknown; mimeType?: unknown; uri?: unknown };
    if (typeof resource.blob !== 'string') return undefined;
    const filename = typeof resource.uri === 'string' ? resource.uri.split('/').pop() : undefined;
    return {
      type: 'file',
      mediaType: typeof resource.mimeType === 'string' ? resource.mimeType : 'application/octet-stream',
      data: { type: 'data', data: resource.blob },
      ...(filename ? { filename } : {}),
    };
  }
  return undefined;
}

/**
 * The files (images, audio, binary resources) an MCP tool returned, for the model to see as files
 * rather than as the short description the envelope's data gives. Kept under {@link maxMediaChars}
 * in all; a file past it stays described only.
 */
export function mediaOf(envelope: Envelope): FilePart[] {
  if (!envelope.ok) return [];
  const blocks = envelope.meta?.[mcpContentKey];
  if (!Array.isArray(blocks)) return [];
  const files: FilePart[] = [];
  let budget = maxMediaChars;
  for (const block of blocks) {
    const file = fileOf(block);
    if (!file || file.data.data.length > budget) continue;
    budget -= file.data.data.length;
    files.push(file);
  }
  return files;
}

/**
 * The tool result the model reads in this turn: the envelope's output, plus the files the tool
 * returned as file parts. The stored thread keeps `output` without them (a later turn reads the
 * description, and base64 never bloats the thread).
 */
export function withMedia(output: ToolResultPart['output'], files: FilePart[]): ToolResultPart['output'] {
  if (files.length === 0) return output;
  const text =
    output.type === 'json' ? JSON.stringify(output.value) : output.type === 'text' ? output.value : undefined;
  if (text === undefined) return output;
  return { type: 'content', value: [{ type: 'text', text }, ...files] };
}
