import type { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCRequest,
  type JSONRPCRequest,
  type MessageExtraInfo,
} from '@modelcontextprotocol/sdk/types.js';

/** The SDK `Protocol`'s handler of one request, which its message dispatch calls. */
type RequestReader = (request: JSONRPCRequest, extra?: MessageExtraInfo) => void;

/** A message with a request's `method` and `id`: worth checking as a request first. */
function looksLikeRequest(message: unknown): boolean {
  if (typeof message !== 'object' || message === null) return false;
  const { method, id } = message as { method?: unknown; id?: unknown };
  return typeof method === 'string' && (typeof id === 'string' || typeof id === 'number');
}

/**
 * Makes the server read a request as a request at once. The SDK's `Protocol` tries every message as
 * a result and as an error response before it tries it as a request, so each request a server reads
 * costs two failed zod parses. A failed parse in zod 4 keeps the message it read in a getter object
 * that V8 cannot collect young, so every request the server read, with all it points to, outlived
 * the next young-generation collection and was copied into the old generation: measured in the
 * gateway bench (`promoted_bytes_per_call`) as kilobytes per call, which later full collections
 * had to clear.
 *
 * The JSON-RPC shapes are strict objects: a message that is a request can be neither kind of
 * response, so checking it as a request first (with the SDK's own schema) changes which handler
 * reads it in no case. Any other message (a response, a notification, a request the SDK cannot read)
 * goes to the SDK's own dispatch as before, unreadable requests included (see
 * `answerUnreadableRequests`). Call it once `protocol.connect(transport)` has resolved, with the
 * message handler the transport had before that call. An SDK without the request handler
 * (`_onrequest`) keeps its own dispatch, and a test says so.
 * @returns whether the requests-first dispatch is in place.
 */
export function readRequestsFirst(
  protocol: Protocol<never, never, never>,
  transport: Transport,
  before: Transport['onmessage'],
): boolean {
  const dispatch = transport.onmessage;
  const onrequest = (protocol as unknown as { _onrequest?: RequestReader })._onrequest;
  if (!dispatch || typeof onrequest !== 'function') return false;
  transport.onmessage = (message, extra) => {
    if (looksLikeRequest(message) && isJSONRPCRequest(message)) {
      // As the SDK's dispatch does: the transport's own handler first, then the request's.
      before?.call(transport, message, extra);
      onrequest.call(protocol, message, extra);
    } else dispatch.call(transport, message, extra);
  };
  return true;
}
