import type { Envelope } from '@patchbay/envelope';
import type { z } from 'zod';
import type { Credentials } from './credentials.js';

/** What a tool call does to the world. `destructive` covers deleting and sending to people outside. */
export const toolEffects = ['read', 'write', 'destructive'] as const;
/** What a tool call does to the world. */
export type ToolEffect = (typeof toolEffects)[number];

/** A JSON Schema object as derived from a zod schema. */
export type JsonSchema = Record<string, unknown>;

/** What a tool's `execute` receives beside its validated input. */
export interface ToolContext {
  /** Who the call is made for. */
  subject: string;
  /** The subject's credentials for this connector. Secret: never put them in a result. */
  credentials: Credentials;
  /** Scopes the credentials grant. */
  scopes: readonly string[];
  /** Aborted when the caller gives up (timeout, user cancel). Pass it to fetch. */
  signal: AbortSignal;
  /** Carried through logs, envelopes and MCP `_meta`. */
  correlationId?: string;
}

/** A tool as a connector author writes it. */
export interface ToolDefinition<Input extends z.ZodType = z.ZodType, Output = unknown> {
  /** Globally unique, prefixed by the connector id: `github_create_issue`. */
  name: string;
  /** What the tool does and when to use it; the model reads this. */
  description: string;
  /** Input schema; every field needs `.describe()`. Add `.meta({ question })` to phrase the question put to a user when the field is missing. */
  input: Input;
  /** Optional schema of `data` in a successful envelope. */
  output?: z.ZodType<Output>;
  effect: ToolEffect;
  /** Scopes that must be granted for the tool to be exposed or run. */
  requiredScopes?: string[];
  /** Other connector ids that must also be connected. */
  requires?: string[];
  /** Per-tool timeout override in milliseconds. */
  timeoutMs?: number;
  /**
   * Requests a user might make that this tool answers ("What is open in PAY?"), at most 10. They reach
   * the model and MCP hosts at the end of the description ({@link toolDescriptionForModel}).
   */
  examples?: string[];
  /** A short group name ("issues", "messaging") shown with the description. */
  category?: string;
  /** Runs the call. Return an envelope; a thrown error is mapped by the caller through `toEnvelope`. */
  execute: (input: z.output<Input>, context: ToolContext) => Promise<Envelope<Output>>;
}

/** A validated tool, with its JSON Schema derived for models and MCP. */
export interface Tool<Input extends z.ZodType = z.ZodType, Output = unknown>
  extends Required<Omit<ToolDefinition<Input, Output>, 'output' | 'timeoutMs' | 'examples' | 'category'>> {
  output?: z.ZodType<Output>;
  timeoutMs?: number;
  examples?: readonly string[];
  category?: string;
  /** JSON Schema (2020-12) of the input, as models and MCP hosts read it. */
  inputJsonSchema: JsonSchema;
  /** The question to ask a user for each top-level input field, used for `needs_input`. */
  questions: Readonly<Record<string, string>>;
  /** Set by `defineConnector`: the id of the connector that owns the tool. */
  connectorId?: string;
  /**
   * Set by `defineConnector`: names of the credential fields that are secret. Only their values are
   * scrubbed from results, so a Jira site or a Twilio account SID in a result survives.
   */
  secretCredentialFields?: readonly string[];
  /**
   * Set by `defineConnector`: the connector's scope implication (scope → every scope a grant of it
   * includes, transitively), so availability checks read it from the tool alone.
   */
  impliedScopes?: ScopeImplication;
}

/** Scope → the scopes a grant of it includes (transitively closed). */
export type ScopeImplication = Readonly<Record<string, readonly string[]>>;

/** A tool of any input/output type, as collections hold them. */
// biome-ignore lint/suspicious/noExplicitAny: a heterogeneous collection of tools needs an erased input type
export type AnyTool = Tool<any, any>;
