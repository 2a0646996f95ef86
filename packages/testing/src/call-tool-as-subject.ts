import type { AnyTool, Credentials, StatusSnapshot } from '@patchbay/connector';
import type { Envelope } from '@patchbay/envelope';
import { invokeTool, toolAvailability } from '@patchbay/helpers';

/** What {@link callToolAsSubject} needs beside the tool and its input. */
export interface CallToolAsSubjectOptions {
  /** Status of the subject's connectors; decides whether the tool may run at all. */
  snapshot: StatusSnapshot;
  /** Credentials handed to the tool when it runs. */
  credentials: Credentials;
  /** Setup URL of the tool's connector, copied into envelopes the user fixes by (re)connecting. */
  setupUrl?: string;
  /** Clock for `retry_after_s` of a rate-limited status; now by default. */
  now?: Date;
  signal?: AbortSignal;
  correlationId?: string;
}

/**
 * Calls a tool the way the orchestrator does: through the availability gate first
 * (`toolAvailability`), and only when it allows, `invokeTool` with the subject's credentials.
 */
export async function callToolAsSubject(
  tool: AnyTool,
  input: unknown,
  options: CallToolAsSubjectOptions,
): Promise<Envelope> {
  const connectorId = tool.connectorId ?? tool.name.split('_')[0]!;
  const availability = toolAvailability(tool, options.snapshot, {
    setupUrls: options.setupUrl === undefined ? {} : { [connectorId]: options.setupUrl },
    now: options.now,
  });
  if (!availability.available) return availability.envelope;
  return invokeTool(tool, input, {
    subject: options.snapshot.subject,
    credentials: options.credentials,
    scopes: options.snapshot.connectors[connectorId]?.scopes ?? [],
    signal: options.signal ?? new AbortController().signal,
    correlationId: options.correlationId,
    setupUrl: options.setupUrl,
  });
}
