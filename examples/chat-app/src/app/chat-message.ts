import type { UIMessage } from 'ai';

/**
 * One connector's entry of the turn's status block, as the server captured it (`ConnectorStatusWire`
 * of `@patchbay/protocol`, written out here so the page does not bundle server packages).
 */
export interface ConnectorStatusEntry {
  status:
    | 'connected'
    | 'not_configured'
    | 'invalid_credentials'
    | 'rate_limited'
    | 'unavailable'
    | 'disabled_by_admin';
  scopes?: string[];
  tools?: string[];
  setup_url?: string;
  would_enable?: string[];
  error?: string;
  retry_after?: string;
  reason?: string;
}

/** The `data-connector-status` part the turn streams whenever it captures status. */
export interface ConnectorStatusData {
  /** When the status was captured (ISO). */
  capturedAt: string;
  /** Every installed connector by id. */
  connectorStatus: Record<string, ConnectorStatusEntry>;
  /** The tools the model was offered with it. */
  tools: string[];
}

/**
 * A chat message as this page reads it: AI SDK UI parts plus the turn's data parts. The page shows
 * the status; the questions also arrive in the reply text, and a decision on a call of an earlier
 * reply (`approval`) only matters to a page that lists proposals.
 */
export type ChatMessage = UIMessage<
  unknown,
  {
    'connector-status': ConnectorStatusData;
    questions: { questions: unknown[] };
    approval: { proposalId: string; output: unknown };
  }
>;
