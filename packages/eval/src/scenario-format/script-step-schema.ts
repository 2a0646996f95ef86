// One step of an adversary's script (`turns[].script[]`): what a scripted adversary or a gate caller
// does in one model call (agents/adversaries.ts, agents/gate-caller.ts).
import { z } from 'zod';
import { connectorStates } from './connector-state-schema.js';
import { checkFlag, documented, listOf, toolName } from './documented.js';

/** One step of an adversary's script (see agents/adversaries.ts). */
export const scriptStepSchema = z.strictObject({
  calls: listOf(
    z.strictObject({
      tool: documented(toolName, 'tool name', 'Any name, offered or not, real or made up.'),
      args: documented(z.unknown().optional(), 'any value', 'The arguments (a string is sent as is).'),
    }),
    'list of `{ tool, args }`',
    'Tool calls the adversary makes in this step.',
  ),
  resend: checkFlag('Send the previous step’s calls again, unchanged.'),
  invent: checkFlag('Answer every open `needs_input` by inventing the missing values.'),
  set: connectorStates('Status changes applied just before this step (a change during the turn).'),
  reply: documented(
    z.union([z.string(), z.array(z.string().min(1)).min(1)]).optional(),
    'text, or list of texts',
    'The step’s text; a step with no calls ends the turn. A list is sent as that many text parts (as a model that writes around its calls does): the reply is them joined.',
  ),
  reasoning: documented(
    z.string().min(1).optional(),
    'text',
    'The step’s reasoning: the adversary sends it as a reasoning part before its text and calls (streamed as reasoning deltas).',
  ),
  repeat: documented(z.number().int().min(1).max(50).optional(), 'count', 'Play this step this many times.'),
  cancel: checkFlag(
    'The turn’s signal fires (the user cancelled) just before this step is answered; with `direct-caller`, the calls are made with a signal that already fired.',
  ),
  cancel_after: documented(
    toolName.optional(),
    'tool name',
    'The turn’s signal fires while this step’s calls run, as soon as this tool’s code runs (the user cancelled mid-step).',
  ),
  cancel_while_reading: checkFlag(
    'With `direct-caller`: the caller’s signal fires while the gate reads the status store for the step’s first call (after routing), as a caller giving up on a slow store does.',
  ),
  cancel_at_service: checkFlag(
    'The turn’s signal fires while this step’s calls run, as soon as a request reached the fake service (with `packages`): the request is in flight and must be aborted.',
  ),
  approve: checkFlag(
    'With `direct-caller` or `mcp-host`: a person approves every pending proposal of the user (`orchestrator.approve`) before the step’s calls.',
  ),
  run_approved: documented(
    z.number().int().min(1).max(10).optional(),
    'count',
    'With `direct-caller`: this many approvers at once each run every approved proposal of the user (`orchestrator.executeProposal`), after `approve` and before the step’s calls; each run is recorded as a call of the proposal’s tool.',
  ),
  reset_executed: checkFlag(
    'With `direct-caller` and `store`: every proposal the scenario’s approvers already ran is set back to `approved` in the database itself (write access to the file, not the key), after `run_approved`.',
  ),
  replay_approved: checkFlag(
    'With `direct-caller`: every proposal the scenario’s approvers already ran is run again (`orchestrator.executeProposal`, the same approval a second time), after `reset_executed`; each replay is recorded as a call of its tool.',
  ),
  origin: documented(
    z.url().optional(),
    'URL',
    'With `mcp-http-host`: the step’s calls carry this `Origin` header (a web page elsewhere); default the gateway’s own.',
  ),
  token: documented(
    z.enum(['wrong', 'none']).optional(),
    '`wrong` / `none`',
    'With `mcp-http-host`: the step’s calls carry a wrong bearer token, or none.',
  ),
  session: documented(
    z.enum(['unknown', 'none']).optional(),
    '`unknown` / `none`',
    'With `mcp-http-host`: the step’s calls carry a session id the gateway never issued, or none.',
  ),
  reject: documented(
    z.string().min(1).optional(),
    'reason',
    'With `direct-caller`: a person rejects every pending proposal of the user with this reason (`orchestrator.reject`), after `approve`.',
  ),
  redefine: documented(
    z
      .strictObject({
        agent: z.string().min(1),
        tool: toolName,
        as: z.string().min(1).optional(),
        description: z.string().min(1).optional(),
        idempotent_hint: z.boolean().optional(),
      })
      .optional(),
    '`{ agent, tool, as, description, idempotent_hint }`',
    'With `direct-caller` and `gate.agents`: the agent is unregistered and registered again (as `as`, else the same id) with this tool’s description or `idempotentHint` annotation changed, after `reject`, before `edit_proposals` and `run_approved`.',
  ),
  edit_proposals: documented(
    z.record(z.string().min(1), z.string()).optional(),
    'map of proposal field → text',
    'With `direct-caller` and `gate` (no `store`): a writer to the proposal store (without the key) sets these fields of every proposal of the user, after `redefine` and before `run_approved`.',
  ),
  cancel_while_listing: checkFlag(
    'With `direct-caller` and `gate` (no `store`): the caller’s signal fires while the gate lists the user’s proposals for the step’s first call (after the status read), as a caller giving up on a slow store does.',
  ),
  disable: documented(
    z.string().min(1).optional(),
    'agent id',
    'With `direct-caller` or `mcp-host`: an admin disables this agent for the user (an MCP server’s name, `function:<tool>`) before the step’s calls.',
  ),
  stop: documented(
    z.string().min(1).optional(),
    'agent id',
    'With `direct-caller` or `mcp-host`: stop this agent (`orchestrator.stopAgent`, e.g. `connector:github`) before the step’s calls.',
  ),
});

/** One step of a script, as a scenario file writes it. */
export type ScriptStep = z.infer<typeof scriptStepSchema>;
