import type { ProposalState } from '@patchbay/connector/ports';
import { usageError } from '../cli-error.js';
import type { Command } from '../command.js';
import { exitCodes } from '../exit-codes.js';
import { formatTable } from '../table.js';

const states: ProposalState[] = ['pending', 'approved', 'rejected', 'executed', 'expired'];

/** Shortens JSON arguments for a table cell. */
function preview(args: unknown): string {
  const text = JSON.stringify(args) ?? '';
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

/** `patchbay proposals`: destructive calls waiting for (or past) a decision. */
export const proposalsCommand: Command = {
  name: 'proposals',
  usage: '[--state pending|approved|rejected|executed|expired] [--all-users]',
  summary: 'List approval proposals for the user',
  examples: [
    'patchbay proposals',
    'patchbay proposals --state pending --json',
    'patchbay proposals --all-users',
  ],
  options: { state: { type: 'string' }, 'all-users': { type: 'boolean', default: false } },
  positionals: { required: [] },
  async run(runtime, values) {
    const state = values.state as ProposalState | undefined;
    if (state !== undefined && !states.includes(state)) {
      throw usageError(`--state must be one of ${states.join(', ')}.`);
    }
    const subject = values['all-users'] ? undefined : runtime.settings.subject;
    const proposals = await runtime.store().proposals.list({
      ...(subject !== undefined ? { subject } : {}),
      ...(state !== undefined ? { state } : {}),
    });
    if (runtime.settings.json) {
      runtime.printJson(
        proposals.map((proposal) => ({
          id: proposal.id,
          subject: proposal.subject,
          tool: proposal.tool,
          owner: proposal.owner ?? null,
          args: proposal.args,
          state: proposal.state,
          created_at: proposal.createdAt,
          decided_at: proposal.decidedAt,
          decided_by: proposal.decidedBy,
          reason: proposal.reason,
        })),
      );
      return exitCodes.ok;
    }
    if (proposals.length === 0) {
      runtime.print(`No ${state ?? ''}${state ? ' ' : ''}proposals${subject ? ` for ${subject}` : ''}.`);
      return exitCodes.ok;
    }
    runtime.print(
      formatTable(
        ['ID', 'STATE', 'USER', 'TOOL', 'OWNER', 'CREATED', 'ARGS', 'DECISION'],
        proposals.map((proposal) => [
          proposal.id,
          proposal.state,
          proposal.subject,
          proposal.tool,
          // The connector, MCP server or function the call is bound to: a same-named tool elsewhere is not it.
          proposal.owner ?? '-',
          proposal.createdAt,
          preview(proposal.args),
          [proposal.decidedBy, proposal.reason].filter(Boolean).join(': '),
        ]),
      ),
    );
    return exitCodes.ok;
  },
};
