import type { Protocol, Transport } from '../sdk.js';
import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type MessageExtraInfo,
} from '../sdk.js';

/** The SDK `Protocol`'s readers of one request and one notification, which its dispatch calls. */
interface ProtocolReaders {
  _onrequest?: (request: JSONRPCRequest, extra?: MessageExtraInfo) => void;
  _onnotification?: (notification: JSONRPCNotification) => void;
}

/** Any `Protocol` (a `Server` or a `Client`) of the SDK. */
// biome-ignore lint/suspicious/noExplicitAny: the readers are the same whatever the message types
export type AnyProtocol = Protocol<any, any, any>;

/** What a message's keys say it is: a request has a method and an id, a notification a method only. */
function shapeOf(message: unknown): 'request' | 'notification' | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { method } = message as { method?: unknown };
  if (typeof method !== 'string') return undefined;
  if (!('id' in message)) return 'notification';
  const { id } = message as { id?: unknown };
  return typeof id === 'string' || typeof id === 'number' ? 'request' : undefined;
}

/**
 * Makes an SDK `Server` or `Client` read a request as a request and a notification as a
 * notification at once. The SDK's `Protocol` tries every message as a result and as an error
 * response before it tries it as a request (and as a request before a notification), so each
 * request it read cost two failed zod parses and each notification three. A failed parse in zod 4
 * keeps the message it read in a getter object that V8 cannot collect young, so every such message,
 * with all it points to, outlived the next young-generation collection and was copied into the old
 * generation, which later full collections had to clear: the gateway bench measured 0.6–1.4 KB
 * promoted per call through a plain SDK proxy (`promoted_bytes_per_call_mean`).
 *
 * The JSON-RPC shapes are strict objects: a request can be neither kind of response nor a
 * notification, and a notification none of the others, so checking a message first against the
 * SDK's own schema of the kind its keys name changes which reader gets it in no case. Any other
 * message (a response, or one the SDK cannot read) goes to the SDK's own dispatch as before, so an
 * unreadable request still reaches `onerror` (see `answerUnreadableRequests`).
 *
 * Call it once `protocol.connect(transport)` has resolved, with the message handler the transport had
 * before that call (the SDK's dispatch calls it first with every message, and so does this). An SDK
 * without these readers (`_onrequest`, `_onnotification`) keeps its own dispatch, and a test says so.
 * @returns whether the dispatch by shape is in place.
 */
export function readByShape(
  protocol: AnyProtocol,
  transport: Transport,
  before: Transport['onmessage'],
): boolean {
  const dispatch = transport.onmessage;
  const { _onrequest: onrequest, _onnotification: onnotification } = protocol as unknown as ProtocolReaders;
  if (!dispatch || typeof onrequest !== 'function' || typeof onnotification !== 'function') return false;
  transport.onmessage = (message, extra) => {
    const shape = shapeOf(message);
    if (shape === 'request' && isJSONRPCRequest(message)) {
      before?.call(transport, message, extra);
      onrequest.call(protocol, message, extra);
    } else if (shape === 'notification' && isJSONRPCNotification(message)) {
      before?.call(transport, message, extra);
      onnotification.call(protocol, message);
    } else dispatch.call(transport, message, extra);
  };
  return true;
}
