import { redactString } from '@patchbay/envelope';
import { errorMessage } from '@patchbay/orchestrator/internal';
import type { Logger } from 'pino';
import type { Transport } from '../sdk.js';
import { ErrorCode, type JSONRPCMessage } from '../sdk.js';
import { describeIssues } from './serve-request.js';

/** The start of the SDK's report of a message that matches none of its JSON-RPC shapes. */
const unknownMessage = 'Unknown message type';

/** A message with a request's `method` and `id`, which therefore waits for an answer. */
function awaitsAnswer(message: unknown): message is { method: string; id: string | number } {
  if (typeof message !== 'object' || message === null) return false;
  const { method, id } = message as { method?: unknown; id?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number');
}

/**
 * What the log says of an error: a schema error's paths and messages (a message a transport could not
 * read as JSON-RPC); else the text before any quoted message, since the SDK quotes whole messages,
 * arguments included.
 */
function summary(error: unknown): string {
  const issues = (error as { issues?: unknown } | undefined)?.issues;
  if (Array.isArray(issues)) return `Not a JSON-RPC message MCP reads: ${describeIssues(issues)}`;
  const text = errorMessage(error);
  const quoted = text.indexOf('{');
  return quoted === -1 ? text : text.slice(0, quoted).trim();
}

/** Follows what the gateway's server reads, to answer what the SDK leaves unanswered. */
export interface UnreadableRequests {
  /** Wraps the transport's message handler, once the server has connected to it. */
  follow(transport: Transport): void;
  /** The server's `onerror`: logs the error, and answers a request the SDK dropped. */
  onerror(error: Error): void;
}

/**
 * Logs every message the gateway's server could not serve, and answers a request the SDK could not
 * read with -32600 (invalid request), as JSON-RPC asks, where the id is still known:
 * - a transport that hands on what it reads (in memory, one of the host's own, and stdio, where the
 *   gateway reads lines with its own `JsonLineReader`): the SDK's `Protocol` drops a message that
 *   matches none of its JSON-RPC shapes (a request whose `params._meta` is not an object, say) and
 *   only reports it to `onerror`, synchronously, while the transport's message handler runs, so the
 *   message being read then is the one dropped;
 * - a line that is no JSON-RPC 2.0 object at all (not JSON, an array): it has no id to answer, so it
 *   is logged only;
 * - streamable HTTP: the SDK's transport answers such a POST with 400 itself.
 */
export function answerUnreadableRequests(log: Logger): UnreadableRequests {
  // The message being read and its transport: two variables, not an object per message.
  let reading: JSONRPCMessage | undefined;
  let readingFrom: Transport | undefined;
  return {
    follow(transport) {
      const read = transport.onmessage;
      if (!read) return;
      transport.onmessage = (message, extra) => {
        reading = message;
        readingFrom = transport;
        try {
          read.call(transport, message, extra);
        } finally {
          reading = undefined;
          readingFrom = undefined;
        }
      };
    },
    onerror(error) {
      log.warn({ error: redactString(summary(error)) }, 'MCP message not served');
      const dropped = reading;
      const transport = readingFrom;
      if (!transport || !errorMessage(error).startsWith(unknownMessage) || !awaitsAnswer(dropped)) return;
      transport
        .send({
          jsonrpc: '2.0',
          id: dropped.id,
          error: {
            code: ErrorCode.InvalidRequest,
            message:
              'Invalid request: this message matches no JSON-RPC request MCP reads (its params and their _meta must be objects).',
          },
        })
        .catch((sendError: unknown) => {
          log.debug({ error: redactString(errorMessage(sendError)) }, 'invalid-request answer not sent');
        });
    },
  };
}
