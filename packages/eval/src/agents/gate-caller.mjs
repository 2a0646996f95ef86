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

/** The adversaries that call the gate instead of playing the model. */
export const gateCallers = new Set(['direct-caller', 'mcp-host', 'mcp-http-host']);

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

/** The parsed JSON-RPC message of a streamable HTTP answer: a JSON body or the first SSE `data:` event. */
async function rpcAnswer(response) {
  const body = await response.text();
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const data = body
      .split('\n')
      .find((line) => line.startsWith('data:'))
      ?.slice(5)
      .trim();
    return data ? JSON.parse(data) : undefined;
  }
  return body ? JSON.parse(body) : undefined;
}

/**
 * An MCP host of the gateway served over streamable HTTP on loopback (`serve`, e.g.
 * `serveMcpGatewayHttp`), with a bearer token, started at its first call. Each call may go out with
 * another `Origin`, a wrong or no token, an unknown or no session: what a page elsewhere or a host
 * that lost its session sends. The server sees every request as a host's, through its HTTP checks.
 */
export function mcpHttpHostFor(serve, options) {
  // A per-run token: the host proves it with every request, and nothing else on the machine has it.
  const token = `eval-gateway-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
  let server;
  let sessionId;
  let nextId = 1;
  const post = (message, { origin, token: tokenMode, session } = {}) => {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      origin: origin ?? new URL(server.url).origin,
      'mcp-protocol-version': '2025-06-18',
    };
    if (tokenMode !== 'none') headers.authorization = `Bearer ${tokenMode === 'wrong' ? `${token}x` : token}`;
    if (session === 'unknown') headers['mcp-session-id'] = '00000000-0000-4000-8000-000000000000';
    else if (session !== 'none' && sessionId) headers['mcp-session-id'] = sessionId;
    return fetch(server.url, { method: 'POST', headers, body: JSON.stringify(message) });
  };
  const request = async (method, params, how) => {
    const id = nextId;
    nextId += 1;
    const response = await post({ jsonrpc: '2.0', id, method, params }, how);
    return { response, answer: response.ok ? await rpcAnswer(response) : undefined };
  };
  async function start() {
    server = await serve({
      gateway: { ...options, refreshIntervalMs: 0 },
      host: '127.0.0.1',
      port: 0,
      token,
      secrets: [token],
    });
    const { response, answer } = await request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'patchbay-eval-http-host', version: '0.0.0' },
    });
    if (!response.ok || answer?.error)
      throw new Error(`initialize over HTTP failed: ${response.status} ${answer?.error?.message ?? ''}`);
    sessionId = response.headers.get('mcp-session-id') ?? undefined;
    if (!sessionId) throw new Error('the HTTP gateway issued no session id');
    const initialized = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await initialized.text();
  }
  return {
    async call(name, args, how = {}) {
      if (!server) await start();
      const { response, answer } = await request('tools/call', { name, arguments: args }, how);
      if (!response.ok) {
        await response.text().catch(() => undefined);
        return { ok: false, http_status: response.status };
      }
      if (answer?.error) throw new Error(`tools/call ${name} failed: ${answer.error.message}`);
      return answer.result.structuredContent;
    },
    async close() {
      if (!server) return;
      if (sessionId)
        await fetch(server.url, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${token}`, 'mcp-session-id': sessionId },
        })
          .then((response) => response.text())
          .catch(() => undefined);
      await server.close();
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
  {
    orchestrator,
    control,
    subject,
    onSet,
    onStatusRead,
    turnId,
    host,
    asApproved = (run) => run(),
    ranProposals = new Map(),
    resetProposal,
  },
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
    let signal = step.cancel ? AbortSignal.abort() : undefined;
    if (step.cancel_while_reading) {
      const giveUp = new AbortController();
      onStatusRead(() => giveUp.abort());
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
  return {
    caller: true,
    calls,
    steps: [],
    exposedTools: [],
    questions: [],
    outcome: 'replied',
  };
}
