import {
  type Envelope,
  type ErrorEnvelope,
  failure,
  mayHaveTakenEffect,
  success,
  toEnvelope,
} from '@patchbay/envelope';
import type { CallToolResult } from '../sdk.js';
import { ErrorCode, isStreamableHttpError, McpError } from '../sdk.js';

/** What a failed call means for the retry rule: only connection and timeout failures may be retried. */
export type CallFailureKind = 'connection' | 'timeout' | 'cancelled' | 'other';

const maxErrorText = 500;

function shorten(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > maxErrorText ? `${oneLine.slice(0, maxErrorText - 1)}…` : oneLine;
}

/** The text items of a result's content, joined; undefined when there are none. */
function joinedText(content: CallToolResult['content']): string | undefined {
  const texts = content.filter((item) => item.type === 'text').map((item) => (item as { text: string }).text);
  return texts.length > 0 ? texts.join('\n') : undefined;
}

// The SDK's McpServer turns protocol errors raised inside tools/call (unknown tool, schema
// violations) into `isError` results whose text starts with the McpError's own formatted code.
// That prefix is produced by code, not written by people, so reading the code back is reliable.
const formattedCode = /^MCP error (-?\d+):/;

/** `meta` key of an envelope holding an MCP server's original content blocks (images, audio, resources). */
export const mcpContentMetaKey = 'mcp_content';

type ContentBlock = CallToolResult['content'][number];

/** Size in bytes of base64 text, without decoding it. */
function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

/**
 * A content block as the model reads it in the envelope's `data`: text, text resources and links
 * as they are; binary payloads (image, audio, blob resources) as a short description, since base64
 * is thousands of tokens a model cannot read. The blocks themselves travel in `meta`.
 */
function modelView(block: ContentBlock): unknown {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
    case 'audio':
      return { type: block.type, mime_type: block.mimeType, size_bytes: base64Bytes(block.data) };
    case 'resource': {
      const { resource } = block;
      const base = { type: 'resource', uri: resource.uri, mime_type: resource.mimeType };
      return 'text' in resource && typeof resource.text === 'string'
        ? { ...base, text: resource.text }
        : { ...base, size_bytes: base64Bytes(String((resource as { blob?: unknown }).blob ?? '')) };
    }
    case 'resource_link':
      return {
        type: 'resource_link',
        uri: block.uri,
        name: block.name,
        ...(block.description === undefined ? {} : { description: block.description }),
        ...(block.mimeType === undefined ? {} : { mime_type: block.mimeType }),
      };
    default:
      return { type: (block as { type: string }).type };
  }
}

/**
 * Maps a `tools/call` result to an envelope. Success data is `structuredContent` when present,
 * else the joined text when every item is text, else the content as the model reads it (binary
 * payloads described, not inlined). Non-text blocks also ride unchanged in `meta.mcp_content`,
 * which no model rendering shows, so the gateway can hand them to MCP hosts as MCP content.
 */
export function envelopeFromResult(result: CallToolResult, server: string): Envelope {
  const content = result.content ?? [];
  if (result.isError === true) {
    const text = joinedText(content) ?? 'The tool reported an error.';
    const code = Number(formattedCode.exec(text)?.[1]);
    const unknownTool = /^MCP error -?\d+: Tool \S+ (?:not found|disabled)/.test(text);
    if (code === ErrorCode.InvalidParams && !unknownTool) {
      return failure('invalid_arguments', { userMessage: shorten(text) });
    }
    if (unknownTool || code === ErrorCode.MethodNotFound) {
      return failure('tool_unavailable', {
        userMessage: `The MCP server "${server}" does not offer this tool right now.`,
      });
    }
    // A tool error is the tool's own answer (bad input it explained, a failed upstream call); the
    // model reads the text to decide what to do next, so it is kept, shortened.
    return failure('upstream_error', { userMessage: shorten(text), retryable: false });
  }
  const media = content.filter((item) => item.type !== 'text');
  const withMedia = (envelope: Envelope): Envelope =>
    media.length === 0 ? envelope : { ...envelope, meta: { [mcpContentMetaKey]: media } };
  if (result.structuredContent !== undefined) return withMedia(success(result.structuredContent));
  const [first] = content;
  if (content.length === 1 && first?.type === 'text') return success(first.text);
  if (media.length === 0 && content.length > 0) return success(joinedText(content) as string);
  return withMedia(success(content.map(modelView)));
}

function isConnectionError(error: unknown): boolean {
  if (error instanceof McpError) return error.code === ErrorCode.ConnectionClosed;
  // 404 on a streamable HTTP session means the server forgot it (restarted): reconnect.
  if (isStreamableHttpError(error)) return error.code === 404;
  if (!(error instanceof Error)) return false;
  if (/not connected/i.test(error.message)) return true;
  const envelope = toEnvelope(error);
  return !envelope.ok && envelope.error_type === 'network_error';
}

/** True when the request cannot have reached the server, so repeating it cannot repeat a side effect. */
export function neverReachedServer(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth += 1) {
    if (/^not connected$/i.test(current.message)) return true;
    if ((current as { code?: unknown }).code === 'ECONNREFUSED') return true;
    current = current.cause;
  }
  return false;
}

/**
 * True when the call's signal fired because its caller gave up, not because a deadline passed: the
 * gate aborts its per-call signal with a `TimeoutError` reason at the deadline, and with the caller's
 * own reason when the caller cancels.
 */
export function abortedByCaller(signal: AbortSignal): boolean {
  if (!signal.aborted) return false;
  const reason: unknown = signal.reason;
  return !(
    typeof reason === 'object' &&
    reason !== null &&
    (reason as { name?: unknown }).name === 'TimeoutError'
  );
}

/** Classifies a thrown `callTool` failure for the retry rule. */
export function classifyCallError(error: unknown, callerAborted: boolean): CallFailureKind {
  if (callerAborted) return 'cancelled';
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return 'timeout';
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return 'timeout';
  return isConnectionError(error) ? 'connection' : 'other';
}

/** Maps a thrown `callTool` failure (protocol error, timeout, dropped connection) to an envelope. */
export function envelopeFromError(
  error: unknown,
  kind: CallFailureKind,
  server: string,
  /** Whether repeating the call is harmless: a read, declared idempotent, or never reached the server. */
  harmlessToRepeat = true,
): ErrorEnvelope {
  if (kind === 'cancelled') {
    // The caller's signal fired: `cancelled`, never retried; a write may still have happened upstream.
    return failure('cancelled', {
      userMessage: harmlessToRepeat
        ? 'The call was cancelled before it finished.'
        : `The call was cancelled before it finished. ${mayHaveTakenEffect}`,
    });
  }
  if (kind === 'timeout') {
    return failure('timeout', { userMessage: `The MCP server "${server}" did not answer in time.` });
  }
  if (kind === 'connection') {
    // The server may have acted on the call before the connection went: a write is not retryable.
    return failure('network_error', {
      userMessage: harmlessToRepeat
        ? `The connection to the MCP server "${server}" was lost during the call.`
        : `The connection to the MCP server "${server}" was lost during the call. ${mayHaveTakenEffect}`,
      retryable: harmlessToRepeat,
    });
  }
  if (error instanceof McpError) {
    if (error.code === ErrorCode.InvalidParams && !/structured content|output schema/i.test(error.message)) {
      return failure('invalid_arguments', { userMessage: shorten(error.message) });
    }
    if (error.code === ErrorCode.MethodNotFound) {
      return failure('tool_unavailable', {
        userMessage: `The MCP server "${server}" does not offer this tool.`,
      });
    }
    return failure('upstream_error', {
      userMessage: `The MCP server "${server}" failed: ${shorten(error.message)}`,
    });
  }
  if (isStreamableHttpError(error) && error.code !== undefined) {
    if (error.code === 401)
      return failure('invalid_credentials', {
        userMessage: `The MCP server "${server}" rejected the credentials.`,
      });
    if (error.code === 403)
      return failure('permission_denied', { userMessage: `The MCP server "${server}" refused the request.` });
    return failure('upstream_error', {
      userMessage: `The MCP server "${server}" answered HTTP ${error.code}.`,
    });
  }
  const mapped = toEnvelope(error);
  return mapped.ok ? failure('internal_error', {}) : mapped;
}
