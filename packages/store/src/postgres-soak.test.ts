import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { adminQuery, describePostgres, freshSchema } from '../test/postgres-server.js';

// Issue 32, proof: a multi-process soak on one Postgres. Four OS processes (test/soak-worker.mjs),
// each with its own gate on the Postgres store, on a schema of their own. One proposes destructive
// calls; another approves half of them and then three race to execute each approved proposal, while
// the same three race to approve-and-execute the other half; one flips a connector off for everyone
// and on again while all four keep calling it. What ran is counted by the service the tools call (an
// HTTP server in this process, on loopback), never by the gate's own report. Counted: every approved
// call ran exactly once; no call entered a gate more than the window after its connector was disabled
// and ran before it was enabled again.
// Shown to catch what it guards (a copy of the built store with the guard removed, through
// PATCHBAY_SOAK_STORE_MODULE): without the compare-and-set of `executed`, racing executors ran
// proposals two and three times; without the cache's drop on an announcement, hundreds of calls ran
// up to the 2 s maximum age after the disable.

/**
 * How long after a disable committed a gate may still let a call through. The store README states the
 * window as the push latency (p95 30 ms measured, 100 ms the target) and never more than the cache's
 * 2 s maximum age. 1 s holds on a busy 2-core machine (the latest seen: 107 ms, at load average 23),
 * and is half the maximum age, so a cache that ignored announcements (its entries then live up to
 * 2 s) fails it: the disabled phase is held longer than 2 s for that reason.
 */
const windowMs = 1_000;
/** The run: 20–36 s measured at load average 10–25; the test's timeout is 120 s. */
const processes = 4;
const proposalRounds = 3;
const proposalsPerRound = 12;
const flips = 3;
const disabledMs = 2_500;
const enabledMs = 800;
const subjects = ['ana', 'ben', 'cho', 'dev', 'eli', 'fay'];
const secretKey = Buffer.alloc(32, 17).toString('base64');
const workerScript = join(import.meta.dirname, '..', 'test', 'soak-worker.mjs');

/**
 * What reached the counting service, and when: `at` on the clock the workers stamp with too
 * (`performance.timeOrigin + performance.now()`, the machine's clock read through a monotonic one).
 */
interface Arrival {
  path: string;
  item: string;
  worker: number;
  at: number;
}

const arrivals: Arrival[] = [];
let service: Server;
let serviceUrl = '';
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  if (!existsSync(join(import.meta.dirname, '..', 'dist', 'index.js'))) {
    throw new Error('Build @patchbay/store first (the test script runs tsup before vitest).');
  }
  service = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      const { item, worker } = JSON.parse(body) as { item: string; worker: number };
      arrivals.push({ path: request.url ?? '', item, worker, at });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await new Promise((resolve) => service.close(resolve));
});

interface Answer {
  tag: number;
  error?: string;
  ids?: string[];
  outcomes?: string[];
  counts?: Record<string, number>;
}

/** One worker process: `send` a command, resolved with its answer. */
function startWorker(url: string, index: number) {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [workerScript, url, secretKey, serviceUrl, String(index)],
    { stdio: 'pipe', env: { ...process.env, SOAK_SUBJECTS: JSON.stringify(subjects) } },
  );
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  const waiting = new Map<number, (answer: Answer) => void>();
  let ready: () => void;
  const started = new Promise<void>((resolve) => {
    ready = resolve;
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line === 'ready') return ready();
    const answer = JSON.parse(line) as Answer;
    waiting.get(answer.tag)?.(answer);
    waiting.delete(answer.tag);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let tags = 0;
  return {
    started: Promise.race([
      started,
      exited.then((code) => {
        throw new Error(`soak worker ${index} exited (${code}) before it was ready: ${errors}`);
      }),
    ]),
    send(op: string, args: Record<string, unknown> = {}): Promise<Answer> {
      tags += 1;
      const tag = tags;
      return new Promise<Answer>((resolve, reject) => {
        waiting.set(tag, (answer) =>
          answer.error ? reject(new Error(`worker ${index} ${op}: ${answer.error}`)) : resolve(answer),
        );
        child.stdin.write(`${JSON.stringify({ op, tag, ...args })}\n`);
      });
    },
    async quit() {
      child.stdin.end(`${JSON.stringify({ op: 'quit' })}\n`);
      await exited;
    },
    errors: () => errors,
  };
}

describePostgres('Postgres under four processes (soak)', () => {
  it('runs every approved call exactly once and no call later than the window after its connector was disabled', async () => {
    const { url, schema, drop } = freshSchema('soak');
    cleanups.push(drop);
    const workers = Array.from({ length: processes }, (_, index) => startWorker(url, index));
    cleanups.push(async () => {
      await Promise.all(workers.map((worker) => worker.quit()));
    });
    await Promise.all(workers.map((worker) => worker.started));
    const [proposer, approver, , flipper] = workers as [
      ReturnType<typeof startWorker>,
      ReturnType<typeof startWorker>,
      ReturnType<typeof startWorker>,
      ReturnType<typeof startWorker>,
    ];
    const executors = workers.slice(1);
    await proposer.send('seed');

    // Every process calls the connector that is about to be flipped, for the whole run.
    await Promise.all(workers.map((worker) => worker.send('load', { lanes: 2 })));
    const flipping = flipper.send('flip', { times: flips, disabledMs, enabledMs });

    const proposed: string[] = [];
    const executions: string[][] = [];
    for (let round = 0; round < proposalRounds; round += 1) {
      const { ids = [] } = await proposer.send('propose', {
        count: proposalsPerRound,
        prefix: `r${round}`,
        subject: subjects[round % subjects.length],
      });
      proposed.push(...ids);
      const half = ids.length / 2;
      const approvedFirst = ids.slice(0, half);
      const racedApproval = ids.slice(half);
      // Approved in one process, then three processes race to execute each one...
      const approvals = await approver.send('approve', { ids: approvedFirst });
      expect(approvals.outcomes).toEqual(approvedFirst.map(() => 'approved'));
      // ...while the other half is approved-and-executed by the same three at once.
      const answers = await Promise.all([
        ...executors.map((worker) => worker.send('execute', { ids: approvedFirst })),
        ...executors.map((worker) => worker.send('approveAndExecute', { ids: racedApproval })),
      ]);
      const [executed, raced] = [answers.slice(0, 3), answers.slice(3)];
      executions.push(
        ...approvedFirst.map((_, index) => executed.map((answer) => answer.outcomes?.[index] ?? '')),
        ...racedApproval.map((_, index) => raced.map((answer) => answer.outcomes?.[index] ?? '')),
      );
    }
    await flipping;
    const loads = await Promise.all(workers.map((worker) => worker.send('stop')));
    for (const worker of workers) expect(worker.errors()).toBe('');

    // Exactly once, counted by the service: one run per proposal, none of anything else.
    const runs = new Map<string, number>();
    for (const arrival of arrivals.filter(({ path }) => path === '/run')) {
      runs.set(arrival.item, (runs.get(arrival.item) ?? 0) + 1);
    }
    const items = Array.from({ length: proposalRounds }, (_, round) =>
      Array.from({ length: proposalsPerRound }, (_, item) => `r${round}-${item}`),
    ).flat();
    expect(proposed).toHaveLength(items.length);
    const notOnce = items
      .filter((item) => runs.get(item) !== 1)
      .map((item) => `${item}: ${runs.get(item) ?? 0}`);
    expect(notOnce).toEqual([]);
    expect([...runs.keys()].sort()).toEqual([...items].sort());
    // The gate's side agrees: one racer ran each, the others were told it was no longer theirs.
    expect(executions.map((outcomes) => outcomes.filter((outcome) => outcome === 'ran').length)).toEqual(
      proposed.map(() => 1),
    );
    const states = await adminQuery<{ state: string; count: string }>(
      schema,
      'SELECT state, count(*) AS count FROM proposals GROUP BY state',
    );
    expect(states).toEqual([{ state: 'executed', count: String(items.length) }]);

    // The window, counted by the service: every lookup that reached it carries the moment its gate
    // call began. One that began more than windowMs after a disable was committed and reached the
    // service before the enable after it was even asked for was let through by a gate while the
    // connector was disabled, past the window. (A call that began before the disable, or that reached
    // the service after the enable was asked for, may have been let through by a read on either side
    // of the change: not counted against the window.)
    const stamp = ({ item }: Arrival) => Number(item.slice(item.indexOf('@') + 1));
    const policy = arrivals
      .filter(({ path }) => path === '/policy')
      .map((arrival) => ({ state: arrival.item.split('@')[0], at: stamp(arrival) }));
    expect(policy.map(({ state }) => state)).toEqual(
      Array.from({ length: flips }, () => ['disabled', 'enabled']).flat(),
    );
    const lookups = arrivals.filter(({ path }) => path === '/lookup');
    const late: string[] = [];
    let ranWhileDisabled = 0;
    let latestAfterDisable = 0;
    const ranAfterEnable = policy.map(() => 0);
    for (const lookup of lookups) {
      const began = stamp(lookup);
      const last = policy.findLastIndex(({ at }) => at <= began);
      if (last === -1) continue;
      if (policy[last]!.state === 'enabled') {
        ranAfterEnable[last] = (ranAfterEnable[last] ?? 0) + 1;
        continue;
      }
      const enabledAt = policy[last + 1]?.at ?? Number.POSITIVE_INFINITY;
      if (lookup.at >= enabledAt) continue;
      const after = began - policy[last]!.at;
      ranWhileDisabled += 1;
      latestAfterDisable = Math.max(latestAfterDisable, after);
      if (after > windowMs) {
        late.push(
          `worker ${lookup.worker}: began ${Math.round(after)} ms after disable ${last / 2} and ran ${Math.round(enabledAt - lookup.at)} ms before the enable was asked for`,
        );
      }
    }
    console.log(
      `soak: ${lookups.length} lookups ran, ${items.length} proposals each ran once; ${ranWhileDisabled} lookups began after a disable committed and ran before the enable (the latest ${Math.round(latestAfterDisable)} ms after the disable; window ${windowMs} ms)`,
    );
    expect(late).toEqual([]);
    // The run exercised both sides: the gate refused calls while disabled, and every re-enable was
    // followed by calls that ran (a gate stuck on "disabled" would pass the window check alone).
    const refused = loads.reduce((sum, answer) => sum + (answer.counts?.disabled_by_admin ?? 0), 0);
    expect(refused).toBeGreaterThan(0);
    expect(ranAfterEnable.filter((_, index) => index % 2 === 1).every((count) => count > 0)).toBe(true);
    for (const answer of loads) {
      const { ok = 0, disabled_by_admin = 0, ...other } = answer.counts ?? {};
      expect(other).toEqual({});
      expect(ok).toBeGreaterThan(0);
      expect(disabled_by_admin).toBeGreaterThan(0);
    }
  }, 120_000);
});
