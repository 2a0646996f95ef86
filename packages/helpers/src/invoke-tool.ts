import type { AnyTool, ToolContext } from '@patchbay/connector';
import { type Envelope, toEnvelope } from '@patchbay/envelope';
import { secretCredentialValues } from './credential-values.js';

/**
 * Validates raw input against a tool's schema and runs it. Never throws: invalid input becomes
 * `needs_input` (missing fields, with the tool's questions) or `invalid_arguments`, and a thrown
 * error becomes an envelope with the credentials redacted. Status, scope, approval and timeout
 * checks belong to the orchestrator; this is the innermost step.
 */
export async function invokeTool(
  tool: AnyTool,
  rawInput: unknown,
  context: ToolContext & { setupUrl?: string },
): Promise<Envelope> {
  const input = rawInput ?? {};
  const envelopeContext = {
    connector: tool.connectorId,
    setupUrl: context.setupUrl,
    tool: tool.name,
    secrets: secretCredentialValues(context.credentials, tool.secretCredentialFields),
    questions: tool.questions,
    input,
    correlationId: context.correlationId,
    // A write whose connection dropped mid-request may have happened: not answered as retryable.
    harmlessToRepeat: tool.effect === 'read',
  };
  try {
    const parsed = await tool.input.safeParseAsync(input, { reportInput: true });
    if (!parsed.success) return toEnvelope(parsed.error, envelopeContext);
    const result = await tool.execute(parsed.data, context);
    return toEnvelope(result, envelopeContext);
  } catch (error) {
    // A throwing transform or refinement lands here too, not only `execute`.
    return toEnvelope(error, envelopeContext);
  }
}
