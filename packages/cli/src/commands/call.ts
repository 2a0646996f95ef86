import { type Envelope, failure } from '@patchbay/envelope';
import { usageError } from '../cli-error.js';
import type { Command } from '../command.js';
import { type ExitCode, exitCodes } from '../exit-codes.js';
import { mcpServersPath, withOrchestrator } from '../orchestrator-session.js';
import type { CliRuntime } from '../runtime.js';
import { didYouMean } from '../suggest.js';

/** Prints an envelope (always JSON: it is the wire shape) and maps it to an exit code. */
export function printEnvelope(runtime: CliRuntime, envelope: Envelope): ExitCode {
  runtime.printJson(envelope);
  if (
    !envelope.ok &&
    envelope.error_type === 'approval_required' &&
    envelope.proposal_id &&
    !runtime.settings.json
  ) {
    runtime.note(`Approval required: run "patchbay approve ${envelope.proposal_id}" (or reject it).`);
  }
  return envelope.ok ? exitCodes.ok : exitCodes.toolError;
}

/** `patchbay call <tool>`: one tool call through the orchestrator, as an agent would make it. */
export const callCommand: Command = {
  name: 'call',
  usage: '<tool> [--args JSON] [--mcp-config FILE]',
  summary: 'Run one tool through the orchestrator for the user and print the envelope',
  examples: [
    'patchbay call github_search_issues --args \'{"query":"repo:acme/api is:issue is:open"}\'',
    'patchbay call github_get_issue --args \'{"owner":"acme","repo":"api","issue_number":42}\'',
    'patchbay call slack_delete_message --args \'{"channel":"C0123456789","ts":"1732201200.000100"}\'   # destructive: exit 4, approval_required + proposal id',
  ],
  options: { args: { type: 'string' }, 'mcp-config': { type: 'string' } },
  positionals: { required: ['tool'] },
  async run(runtime, values, [tool]) {
    let args: unknown = {};
    if (values.args !== undefined) {
      try {
        args = JSON.parse(values.args as string);
      } catch (error) {
        throw usageError(`--args is not valid JSON: ${(error as Error).message}`);
      }
    }
    const mcpServers = mcpServersPath(runtime, values['mcp-config'] as string | undefined);
    let owner: string | undefined;
    const envelope = await withOrchestrator(runtime, { mcpServers, tool }, async (orchestrator, session) => {
      if (session.sharedBy) {
        // The gateway and runTurn serve a shared name from no server; running the first one found
        // would make the same call mean different things depending on how it is made.
        const { sharedToolNameMessage } = await import('@patchbay/mcp/internal');
        return failure('tool_unavailable', { userMessage: sharedToolNameMessage(tool!, session.sharedBy) });
      }
      owner = orchestrator.ownerOf(tool!);
      if (!orchestrator.getTool(tool!)) {
        const names = orchestrator.listTools().map((item) => item.name);
        runtime.note(`No tool named "${tool}".${didYouMean(tool!, names)}`);
      }
      return orchestrator.execute(tool!, args, { subject: runtime.settings.subject });
    });
    await runtime.store().audit.append({
      event: 'tool_called',
      subject: runtime.settings.subject,
      tool,
      owner,
      outcome: envelope.ok ? 'ok' : envelope.error_type,
      correlation_id: envelope.meta?.correlation_id,
      via: 'cli',
    });
    return printEnvelope(runtime, envelope);
  },
};
