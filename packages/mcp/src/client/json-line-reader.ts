import type { JSONRPCMessage, StdioClientTransport, StdioServerTransport } from '../sdk.js';

const newline = 0x0a;

/**
 * The line reader of a stdio connection (to an MCP server, or from a host), in place of the SDK's
 * `ReadBuffer`. That
 * one checks each message against the whole JSON-RPC union (request, notification, result, error:
 * one failed attempt per kind tried before the right one) before the SDK's `Protocol` checks it
 * again against the one kind it is, and the call checks its result a third time. This reader splits
 * lines and parses JSON only; what it hands on is still refused by `Protocol` unless it is exactly one
 * JSON-RPC request, notification or response (the same strict schemas), and every request,
 * notification and result is parsed by its own schema before anything reads it.
 */
export class JsonLineReader {
  private buffer: Buffer | undefined;

  constructor(private readonly maxBufferSize: number) {}

  /** Adds a chunk of the server's output; throws past the size limit, as the SDK's reader does. */
  append(chunk: Buffer): void {
    const size = (this.buffer?.length ?? 0) + chunk.length;
    if (size > this.maxBufferSize) {
      this.clear();
      // The SDK's wording: the connection recognises an oversized answer by it.
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`);
    }
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
  }

  /** The next whole line as a message; null until one is complete. Throws for a line that is no JSON-RPC 2.0 object. */
  readMessage(): JSONRPCMessage | null {
    if (!this.buffer) return null;
    const end = this.buffer.indexOf(newline);
    if (end === -1) return null;
    const line = this.buffer.toString('utf8', 0, end).replace(/\r$/, '');
    this.buffer = this.buffer.subarray(end + 1);
    const message: unknown = JSON.parse(line);
    if (
      typeof message !== 'object' ||
      message === null ||
      Array.isArray(message) ||
      (message as { jsonrpc?: unknown }).jsonrpc !== '2.0'
    ) {
      throw new Error('Not a JSON-RPC 2.0 message: the line holds no JSON object with "jsonrpc": "2.0".');
    }
    return message as JSONRPCMessage;
  }

  clear(): void {
    this.buffer = undefined;
  }
}

/** The SDK's default stdio read limit, for a transport whose own limit cannot be read. */
const sdkDefaultMaxBufferSize = 10 * 1024 * 1024;

/**
 * Gives a stdio transport of the SDK (client or server side) the {@link JsonLineReader}, with the
 * given size limit or else the one the transport's own reader was made with. The SDK keeps its
 * reader in `_readBuffer`; a version without that field keeps its own reader (and this returns
 * false), which costs time only.
 */
export function useJsonLineReader(
  transport: StdioClientTransport | StdioServerTransport,
  maxBufferSize?: number,
): boolean {
  const fields = transport as unknown as { _readBuffer?: { _maxBufferSize?: unknown } | null };
  const current = fields._readBuffer;
  if (typeof current !== 'object' || current === null) return false;
  const ownLimit = current._maxBufferSize;
  const limit =
    maxBufferSize ?? (typeof ownLimit === 'number' && ownLimit > 0 ? ownLimit : sdkDefaultMaxBufferSize);
  fields._readBuffer = new JsonLineReader(limit) as unknown as typeof current;
  return true;
}
