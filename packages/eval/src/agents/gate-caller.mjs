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
// `mcp-host`: the same script as an MCP host, every call a `tools/call` to the config's MCP gateway
// (`callers.gateway`, e.g. `createMcpGateway` of @patchbay/mcp) in process over a transport written
// here; the envelope is the result's structured content. The gateway answers a name it does not serve
// itself; every other call it hands to `orchestrator.execute`.
// Each call is recorded like a turn's call (tool, arguments, envelope, sent), so the usual checks
// (`envelopes`, `called`, `ran`, `service_requests`, `status_unchanged`) apply. There is no model:
// the turn's reply is empty and it has no model steps. The config's `callers.agents` adds agents
// (application functions) for these scenarios only.

/** The adversaries that call the gate instead of playing the model. */
export const gateCallers = new Set(['direct-caller', 'mcp-host']);

function parseArgs(args) {
  if (typeof args !== 'string') return args ?? {};
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/**
 * An MCP host on an in-process transport: JSON-RPC requests in, the server's answers out. It speaks
 * only what a host needs here: `initialize`, `notifications/initialized` and `tools/call`.
 */
async function connectHost(gateway) {
  const waiting = new Map();
  let nextId = 1;
  const transport = {
    async start() {},
    async close() {
      transport.onclose?.();
    },
    async send(message) {
      if (message.id !== undefined && waiting.has(message.id) && !('method' in message)) {
        waiting.get(message.id)(message);
        waiting.delete(message.id);
      }
    },
  };
  await gateway.connect(transport);
  const request = (method, params) =>
    new Promise((resolve) => {
      const id = nextId;
      nextId += 1;
      waiting.set(id, resolve);
      transport.onmessage?.({ jsonrpc: '2.0', id, method, params });
    });
  const hello = await request('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'patchbay-eval-host', version: '0.0.0' },
  });
  if (hello.error) throw new Error(`initialize failed: ${hello.error.message}`);
  transport.onmessage?.({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return {
    async call(name, args) {
      const answer = await request('tools/call', { name, arguments: args });
      if (answer.error) throw new Error(`tools/call ${name} failed: ${answer.error.message}`);
      return answer.result.structuredContent;
    },
    close: () => gateway.close(),
  };
}

/** An MCP host of the config's gateway (`callers.gateway`), connected at its first call. */
export function mcpHostFor(createGateway, options) {
  let host;
  return {
    async call(name, args) {
      host ??= await connectHost(createGateway({ ...options, refreshIntervalMs: 0 }));
      return host.call(name, args);
    },
    async close() {
      await host?.close();
    },
  };
}

/**
 * Plays one turn's script against the gate (through `host` when given, an MCP host, else
 * `orchestrator.execute` directly); returns a trace in the shape of runTurn's (its `calls`), marked
 * `caller: true` (no tools were offered: the caller offers itself whatever it calls).
 */
export async function callGate(
  script,
  { orchestrator, control, subject, onSet, onStatusRead, turnId, host, asApproved = (run) => run() },
) {
  const calls = [];
  for (const [index, step] of (script ?? []).entries()) {
    if (step.set) await onSet(step.set);
    if (step.stop) await orchestrator.stopAgent(step.stop);
    if (step.disable) await control.disable(step.disable, subject);
    if (step.approve)
      for (const proposal of await orchestrator.listProposals({ subject, state: 'pending' }))
        await orchestrator.approve(proposal.id);
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
          calls.push({
            step: index,
            toolName: proposal.tool,
            arguments: proposal.args,
            envelope,
            sent: true,
          });
      }
    let signal = step.cancel ? AbortSignal.abort() : undefined;
    if (step.cancel_while_reading) {
      const giveUp = new AbortController();
      onStatusRead(() => giveUp.abort());
      signal = giveUp.signal;
    }
    for (const [position, call] of (step.calls ?? []).entries()) {
      const args = parseArgs(call.args);
      const envelope = host
        ? await host.call(call.tool, args)
        : await orchestrator.execute(call.tool, args, {
            subject,
            correlationId: `${turnId}:${index}:${position}`,
            ...(signal ? { signal } : {}),
          });
      calls.push({ step: index, toolName: call.tool, arguments: args, envelope, sent: true });
    }
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
