import type { MissingField } from '@patchbay/envelope';
import type { Client } from '../sdk.js';
import {
  type ClientCapabilities,
  type ElicitRequestFormParams,
  ElicitRequestSchema,
  type ElicitResult,
} from '../sdk.js';

/** A server's form-mode elicitation, as the app's handler sees it. */
export interface ElicitationRequest {
  /** Name of the MCP server asking. */
  server: string;
  /** Exposed name of the tool whose call the question belongs to. */
  tool: string;
  /** The subject (user) the call runs for. */
  subject: string;
  /** The server's message to the user. */
  message: string;
  /** One entry per requested property, with the question to put to the user (title, description or name). */
  fields: MissingField[];
  /** The server's requested schema, for handlers that render a form. */
  requestedSchema: ElicitRequestFormParams['requestedSchema'];
  /** Aborted when the call ends (timeout, caller cancel). */
  signal: AbortSignal;
}

/**
 * What the app does with an elicitation: answer it now (`accept` with content, `decline`,
 * `cancel`), or `ask_user`: the server is told `cancel` and the call answers `needs_input` with the
 * questions, so the turn asks the user in the conversation.
 */
export type ElicitationAnswer =
  | { action: 'accept'; content: Record<string, string | number | boolean | string[]> }
  | { action: 'decline' }
  | { action: 'cancel' }
  | { action: 'ask_user' };

/** Answers a server's elicitation; see {@link ElicitationAnswer}. */
export type ElicitationHandler = (
  request: ElicitationRequest,
) => ElicitationAnswer | Promise<ElicitationAnswer>;

/** A handler that turns every elicitation into `needs_input`: for chat apps, whose user answers in the next message. */
export const askUserOnElicitation: ElicitationHandler = () => ({ action: 'ask_user' });

// Names, titles and descriptions of fields that hold credentials. A conversation is no place for
// them: they would sit in the thread, the prompt and the model provider's logs.
const secretField =
  /pass(word|wd|phrase|code)?\b|secret|token|api[\s_-]?key|access[\s_-]?key|private[\s_-]?key|credential|\bpin\b|\botp\b|one[\s_-]?time|2fa|mfa|cvv|cvc|card[\s_-]?number|\bssn\b/i;

/** The call an elicitation is attributed to, and what happened to questions during it. */
export interface CallQuestions {
  tool: string;
  subject: string;
  signal: AbortSignal;
  /** Questions the handler chose to put to the user (`ask_user`). */
  asked: MissingField[];
  /** Fields of a refused request for secrets, to say why the call could not finish. */
  refusedSecrets: string[];
}

/**
 * The capabilities the client declares: elicitation (form) only when the app can answer. An
 * accepted answer that leaves a field out gets the requested schema's default for it (SEP-1034;
 * the SDK fills them in under `applyDefaults`), so a handler need only answer what it changes.
 */
export function clientCapabilities(handler: ElicitationHandler | undefined): ClientCapabilities {
  return handler ? { elicitation: { form: { applyDefaults: true } } } : {};
}

/** One question per field: its description or title; the server's message when it is the only field and has neither. */
function fieldsOf(schema: ElicitRequestFormParams['requestedSchema'], message: string): MissingField[] {
  const entries = Object.entries(schema.properties);
  return entries.map(([name, property]) => {
    const described = property as { title?: string; description?: string };
    const fallback = entries.length === 1 ? message : `${message} (${name})`;
    return { field: name, question: described.description ?? described.title ?? fallback };
  });
}

function asksForSecret(schema: ElicitRequestFormParams['requestedSchema']): string[] {
  return Object.entries(schema.properties)
    .filter(([name, property]) => {
      const described = property as { title?: string; description?: string; format?: string };
      return (
        described.format === 'password' ||
        [name, described.title ?? '', described.description ?? ''].some((text) => secretField.test(text))
      );
    })
    .map(([name]) => name);
}

/**
 * Handles `elicitation/create` on a client. An elicitation is attributed to the one call in flight
 * on this server; with none or several in flight it cannot be put to the right user, so it is
 * cancelled unasked. URL mode is not declared, so the SDK refuses it before this runs.
 */
export function handleElicitation(
  client: Client,
  server: string,
  handler: ElicitationHandler,
  callsInFlight: () => ReadonlySet<CallQuestions>,
): void {
  client.setRequestHandler(ElicitRequestSchema, async (request): Promise<ElicitResult> => {
    const params = request.params;
    if (params.mode === 'url') return { action: 'decline' };
    const calls = [...callsInFlight()];
    const call = calls.length === 1 ? calls[0] : undefined;
    if (!call) return { action: 'cancel' };
    const secrets = asksForSecret(params.requestedSchema);
    if (secrets.length > 0) {
      call.refusedSecrets.push(...secrets);
      return { action: 'decline' };
    }
    const fields = fieldsOf(params.requestedSchema, params.message);
    let answer: ElicitationAnswer;
    try {
      answer = await handler({
        server,
        tool: call.tool,
        subject: call.subject,
        message: params.message,
        fields,
        requestedSchema: params.requestedSchema,
        signal: call.signal,
      });
    } catch {
      // The app's failure is not the server's business (its text may say anything): the
      // question simply goes unanswered, which every server must handle.
      return { action: 'cancel' };
    }
    if (answer.action === 'ask_user') {
      call.asked.push(...fields);
      return { action: 'cancel' };
    }
    return answer;
  });
}
