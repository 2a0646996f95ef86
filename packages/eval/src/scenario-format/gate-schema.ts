// `gate:` of a scenario: how the orchestrator's approval gate is set up for the run (its approval
// policy, test agents whose tools carry any effect, hints and trust, a proposal store that behaves
// like a faulty or shared database), for the gate callers' approval scenarios (33-approvals.yaml).
import { z } from 'zod';
import { documented } from './documented.js';

/** A mode as a config writes it: any text, so a scenario can hand the gate a mode it must refuse. */
const modeText = z.string().min(1);

/** One tool of a test agent. */
export const probeToolSchema = z.strictObject({
  effect: z.enum(['read', 'write', 'destructive']),
  /** `annotations.readOnlyHint`; left out: no such hint. */
  read_only_hint: z.boolean().optional(),
  /** `annotations.destructiveHint`; left out: no such hint. */
  destructive_hint: z.boolean().optional(),
  /** The tool's own `trusted`, overriding its agent's. */
  trusted: z.boolean().optional(),
  /** The tool's `connectorId` (the connector the approval policy's `connectors` names). */
  connector: z.string().min(1).optional(),
  description: z.string().min(1).optional(),
});

/** One test agent: its trust, whether its manifest asks for every call, its tools. */
export const probeAgentSchema = z.strictObject({
  /** The agent's `trusted`; left out: untrusted. */
  trusted: z.boolean().optional(),
  /** The manifest's `requiresApproval`. */
  requires_approval: z.boolean().optional(),
  tools: z.record(z.string().regex(/^[a-z][a-z0-9_]*$/, 'a tool name, e.g. probe_write'), probeToolSchema),
});

/** How the run's proposal store behaves (an in-memory store, wrapped). */
export const proposalStoreBehaviours = ['keeps_approval_mac', 'loses_race', 'ignores_tool_filter'] as const;

/** `gate:` of a scenario. */
export const gateSchema = z.strictObject({
  approvals: z
    .strictObject({
      default: modeText.optional(),
      connectors: z.record(z.string(), modeText).optional(),
      tools: z.record(z.string(), modeText).optional(),
    })
    .optional(),
  /** createOrchestrator is expected to refuse `approvals`: the turns then run on a gate without it (`policy_refused` checks the refusal). */
  refused: z.literal(true).optional(),
  agents: z
    .record(z.string().regex(/^[a-z][a-z0-9-]*$/, 'an agent id, e.g. probe'), probeAgentSchema)
    .optional(),
  proposals: z.enum(proposalStoreBehaviours).optional(),
});

/** The documented `gate` key of a scenario. */
export const gateKey = documented(
  gateSchema.optional(),
  '`{ approvals, refused, agents, proposals }`',
  'With a gate caller: the gate of the run. `approvals`: the approval policy given to createOrchestrator (`{ default, connectors, tools }`, any text as a mode); `refused: true`: createOrchestrator is expected to refuse that policy (`policy_refused` checks how; the turns then run without it); `agents`: test agents (`id: { trusted, requires_approval, tools: { name: { effect, read_only_hint, destructive_hint, trusted, connector, description } } }`), each tool’s run recorded for `ran`, its result `{ ran: name }`; `proposals`: an in-memory proposal store that `keeps_approval_mac` on executed rows, `loses_race` (another instance consumes every approval first) or `ignores_tool_filter` of `list`; with it, `reset_executed` edits its rows too.',
);

/** `gate:` as a scenario file writes it. */
export type GateSpec = z.infer<typeof gateSchema>;
/** A test agent as a scenario file writes it. */
export type ProbeAgentSpec = z.infer<typeof probeAgentSchema>;
