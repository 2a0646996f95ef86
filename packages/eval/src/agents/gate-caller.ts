// The gate callers: adversaries that call the gate with no turn runner in front. runTurn refuses a
// tool it did not offer, arguments nested too deep and calls after its signal fired before the gate
// sees them; but the gate is also reached without runTurn: by application code calling
// `orchestrator.execute` (the documented API) and by MCP hosts through the MCP gateway (`patchbay mcp`
// hands every call of a tool it serves to `orchestrator.execute`). Such a caller sends whatever it
// likes, so the gate's own refusals must hold on their own.
//
// `direct-caller`: a turn's `script` steps go straight to `orchestrator.execute`:
//   calls:  [{ tool, args }]  call these tools (any name; a string argument is parsed as JSON when
//                             it is JSON, else sent as the string)
//   set:    { id: state }     change connector status just before the calls
//   cancel: true              the caller's signal has already fired when the calls are made
//   stop:   agent id          stop that agent (`orchestrator.stopAgent`) before the calls
//   disable: agent id         an admin disables that agent for the user (an MCP server's name,
//                             `function:<tool>`) before the calls
//   approve: true             a person approves every pending proposal of the user before the calls
//   run_approved: n           n approvers at once each run every approved proposal of the user
//                             (`orchestrator.executeProposal`, what `patchbay approve` and a second
//                             app instance do), after `approve` and before the calls; each run is
//                             recorded as a call of the proposal's tool. A proposal runs at most once.
//   cancel_while_reading: true  the caller's signal fires while the gate reads the status store for
//                             the step's first call (after routing), as a caller giving up on a slow
//                             store does
//   reset_executed: true      on a store (`store:`), every proposal this scenario already ran is set
//                             back to `approved` in the database itself (someone with write access to
//                             the file but not the key), after `run_approved`
//   replay_approved: true     every proposal this scenario already ran is run again
//                             (`orchestrator.executeProposal`, the same approval used a second time),
//                             after `reset_executed`; each replay is recorded as a call of its tool
// `mcp-http-host` plays the same script as an MCP host of the gateway served over streamable HTTP on
// 127.0.0.1 (`callers.serveGateway`, `serveMcpGatewayHttp` of @patchbay/mcp, what `patchbay mcp --http`
// runs), speaking the transport itself with `fetch`: it opens a session with `initialize`, sends the
// gateway's bearer token and, like a browser page, an `Origin`. A step may send its calls
//   origin: url               with this `Origin` header (a page elsewhere; default the gateway's own)
//   token: wrong | none       with a wrong bearer token, or none
//   session: unknown | none   with a session id the gateway never issued, or none
// A refused request is recorded as a call whose envelope is `{ ok: false, http_status }`.
// `mcp-host`: the same script as an MCP host, every call a `tools/call` to the config's MCP gateway
// (`callers.gateway`, e.g. `createMcpGateway` of @patchbay/mcp) in process over a transport written
// here; the envelope is the result's structured content. The gateway answers a name it does not serve
// itself; every other call it hands to `orchestrator.execute`.
// Each call is recorded like a turn's call (tool, arguments, envelope, sent), so the usual checks
// (`envelopes`, `called`, `ran`, `service_requests`, `status_unchanged`) apply. There is no model:
// the turn's reply is empty and it has no model steps. The config's `callers.agents` adds agents
// (application functions) for these scenarios only.

import type { Proposal } from '@patchbay/connector/ports';
import type { Orchestrator } from '@patchbay/orchestrator';
import type { RunCall, RunTrace, ScenarioConnectorState } from '../run-types.js';
import type { ScriptStep } from '../scenario-format/script-step-schema.js';
import { approvalSteps } from './gate-caller-approvals.js';
import type { GateHost } from './mcp-hosts.js';

export { type GateHost, type HostGatewayOptions, mcpHostFor, mcpHttpHostFor } from './mcp-hosts.js';

/** The adversaries that call the gate instead of playing the model. */
export const gateCallers: ReadonlySet<string | undefined> = new Set([
  'direct-caller',
  'mcp-host',
  'mcp-http-host',
]);

function parseArgs(args: unknown): unknown {
  if (typeof args !== 'string') return args ?? {};
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/** What a gate caller needs to play a turn's script. */
export interface GateCallOptions {
  orchestrator: Orchestrator;
  /** Disables an agent for the subject, as an admin would (`disable`). */
  control: { disable(id: string, subject: string): Promise<unknown> };
  subject: string;
  /** Applies a step's status change. */
  onSet: (spec: Record<string, ScenarioConnectorState>) => Promise<void>;
  /** Arms a one-shot hook that runs once the gate's next status read returned (`cancel_while_reading`). */
  onStatusRead: (hook: () => void) => void;
  turnId: string;
  /** An MCP host to call through; without one, `orchestrator.execute` directly. */
  host?: GateHost | undefined;
  /** Runs an approver's run of a proposal, marking what it runs as approved. */
  asApproved?: <T>(run: () => Promise<T>) => Promise<T>;
  /** The proposals the scenario's approvers ran, for `replay_approved` in a later step. */
  ranProposals?: Map<string, Proposal>;
  /** Edits a proposal's row in the database itself (`reset_executed`). */
  resetProposal?: ((id: string, columns: Record<string, string | null>) => Promise<void>) | undefined;
  /** Replaces a `gate.agents` agent by one whose tool is redefined (`redefine`). */
  redefine?: Parameters<typeof approvalSteps>[1]['redefine'];
  /** Edits a proposal's fields in a `gate` store (`edit_proposals`). */
  gateEdit?: ((id: string, fields: Record<string, string>) => Promise<void>) | undefined;
  /** Arms a one-shot hook run once the gate's next proposal listing returned (`cancel_while_listing`). */
  onProposalList?: ((hook: () => void) => void) | undefined;
}

/** What a person does before a step's calls: status, stops, disables, approvals, approvers' runs. */
async function personSteps(
  step: ScriptStep,
  index: number,
  options: Required<Pick<GateCallOptions, 'asApproved' | 'ranProposals'>> & GateCallOptions,
  calls: RunCall[],
) {
  const { orchestrator, control, subject, onSet, turnId, asApproved, ranProposals, resetProposal } = options;
  if (step.set) await onSet(step.set);
  if (step.stop) await orchestrator.stopAgent(step.stop);
  if (step.disable) await control.disable(step.disable, subject);
  if (step.approve)
    for (const proposal of await orchestrator.listProposals({ subject, state: 'pending' }))
      await orchestrator.approve(proposal.id);
  await approvalSteps(step, { ...options, editProposal: options.gateEdit });
  if (step.run_approved)
    for (const proposal of await orchestrator.listProposals({ subject, state: 'approved' })) {
      // Started together, none awaited before the others: the race a proposal store must win.
      const runs = Array.from({ length: step.run_approved }, (_, position) =>
        asApproved(() =>
          orchestrator.executeProposal(proposal.id, {
            correlationId: `${turnId}:${index}:approver-${position}`,
          }),
        ),
      );
      for (const envelope of await Promise.all(runs))
        calls.push({ step: index, toolName: proposal.tool, arguments: proposal.args, envelope, sent: true });
      ranProposals.set(proposal.id, proposal);
    }
  if (step.reset_executed) {
    if (!resetProposal)
      throw new Error('`reset_executed` needs `store:` and a config store that can edit rows');
    for (const id of ranProposals.keys()) await resetProposal(id, { state: 'approved' });
  }
  if (step.replay_approved)
    for (const [id, proposal] of ranProposals) {
      const envelope = await asApproved(() =>
        orchestrator.executeProposal(id, { correlationId: `${turnId}:${index}:replay` }),
      );
      calls.push({ step: index, toolName: proposal.tool, arguments: proposal.args, envelope, sent: true });
    }
}

/** A step's calls, through the host or straight to `orchestrator.execute`. */
async function stepCalls(step: ScriptStep, index: number, options: GateCallOptions, calls: RunCall[]) {
  const { orchestrator, subject, onStatusRead, turnId, host } = options;
  let signal = step.cancel ? AbortSignal.abort() : undefined;
  if (step.cancel_while_reading) {
    const giveUp = new AbortController();
    onStatusRead(() => giveUp.abort());
    signal = giveUp.signal;
  }
  if (step.cancel_while_listing) {
    if (!options.onProposalList) throw new Error('`cancel_while_listing` needs `gate`');
    const giveUp = new AbortController();
    options.onProposalList(() => giveUp.abort());
    signal = giveUp.signal;
  }
  for (const [position, call] of (step.calls ?? []).entries()) {
    const args = parseArgs(call.args);
    const how = { origin: step.origin, token: step.token, session: step.session };
    const envelope = host
      ? await host.call(call.tool, args, how)
      : await orchestrator.execute(call.tool, args, {
          subject,
          correlationId: `${turnId}:${index}:${position}`,
          ...(signal ? { signal } : {}),
        });
    calls.push({ step: index, toolName: call.tool, arguments: args, envelope, sent: true });
  }
}

/**
 * Plays one turn's script against the gate (through `host` when given, an MCP host, else
 * `orchestrator.execute` directly); returns a trace in the shape of runTurn's (its `calls`), marked
 * `caller: true` (no tools were offered: the caller offers itself whatever it calls).
 */
export async function callGate(
  script: readonly ScriptStep[] | undefined,
  options: GateCallOptions,
): Promise<RunTrace> {
  const filled = {
    ...options,
    asApproved: options.asApproved ?? (<T>(run: () => Promise<T>) => run()),
    ranProposals: options.ranProposals ?? new Map<string, Proposal>(),
  };
  const calls: RunCall[] = [];
  for (const [index, step] of (script ?? []).entries()) {
    await personSteps(step, index, filled, calls);
    await stepCalls(step, index, filled, calls);
  }
  return {
    caller: true,
    calls,
    steps: [],
    exposedTools: [],
    questions: [],
    outcome: 'replied',
  };
}
