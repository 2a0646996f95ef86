// Benchmark: CPU time of `patchbay mcp` up to its first `tools/list` answer over stdio, of
// `patchbay connectors --json` and of `patchbay --version`, each against `node -e 0` run in the same
// round (interleaved, order shuffled per round), with the eight real connector packages installed and
// two of them connected. CPU, not wall time: the machine this runs on is often busy, and a busy machine
// stretches wall time far more than the CPU a process spends. Writes bench/results/cli-startup.json.
//
// How the child's CPU is read (user + system, every thread):
// - a process that exits (`node -e 0`, `connectors`, `--version`): getrusage of the reaped child, through
//   a three-line Python wrapper (os.wait4) — Node cannot read a child's rusage itself;
// - `patchbay mcp`, which keeps running: the sum of /proc/<pid>/task/*/schedstat the moment its answer
//   to `tools/list` arrives (what it spent to get there, not its shutdown).
import { spawn, spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '@patchbay/store';

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');
const repositoryRoot = join(packageDirectory, '..', '..');
const cli = join(packageDirectory, 'dist', 'cli.js');
const resultsFile = join(repositoryRoot, 'bench', 'results', 'cli-startup.json');
const rounds = Number(process.env.BENCH_RUNS ?? 15);
const target = 5;

const python = ['python3', 'python'].find(
  (candidate) => spawnSync(candidate, ['--version'], { stdio: 'ignore' }).status === 0,
);
if (!python)
  throw new Error('cli-startup.bench needs python3 on PATH to read a child’s getrusage (os.wait4).');
const rusageWrapper = [
  'import os, sys',
  'pid = os.fork()',
  'if pid == 0: os.execvp(sys.argv[1], sys.argv[1:])',
  '_, status, usage = os.wait4(pid, 0)',
  'os.write(3, ("%f %d" % ((usage.ru_utime + usage.ru_stime) * 1000, status)).encode())',
].join('\n');

/** CPU milliseconds (user + system) of `command`, run to its exit. */
function cpuToExit(command, args, options) {
  const run = spawnSync(python, ['-c', rusageWrapper, command, ...args], {
    ...options,
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  const [milliseconds, status] = String(run.output[3]).split(' ').map(Number);
  if (status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${run.stderr}`);
  return milliseconds;
}

/** CPU milliseconds of every thread of a running process, from the scheduler's own accounting. */
function cpuOfRunning(pid) {
  let nanoseconds = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      nanoseconds += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A thread that ended between the listing and the read: its time is gone with it.
    }
  }
  return nanoseconds / 1e6;
}

/** Starts `patchbay mcp`, asks `initialize` then `tools/list`, and returns its CPU when the list arrives. */
function mcpToFirstList(options) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, '--home', options.home, 'mcp'], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    let errors = '';
    let measured;
    child.stderr.on('data', (chunk) => {
      errors += chunk;
    });
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (measured === undefined && output.includes('"id":2')) {
        measured = cpuOfRunning(child.pid);
        const tools = JSON.parse(output.split('\n').find((line) => line.includes('"id":2'))).result.tools;
        child.stdin.end();
        child.once('exit', () => resolve({ cpu: measured, tools: tools.length }));
      }
    });
    child.once('exit', (code) => {
      if (measured === undefined)
        reject(new Error(`patchbay mcp exited (${code}) before answering: ${errors}`));
    });
    const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      },
    });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/list' });
  });
}

function percentile(sorted, fraction) {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(fraction * (sorted.length - 1))))];
}

function summary(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (value) => Math.round(value * 100) / 100;
  return {
    median: round(percentile(sorted, 0.5)),
    p10: round(percentile(sorted, 0.1)),
    p90: round(percentile(sorted, 0.9)),
    min: round(sorted[0]),
    max: round(sorted.at(-1)),
  };
}

function shuffled(items) {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [copy[index], copy[other]] = [copy[other], copy[index]];
  }
  return copy;
}

const workspace = mkdtempSync(join(tmpdir(), 'patchbay-cli-startup-'));
try {
  // A project with the eight real connector packages installed, found the way users' are: node_modules.
  const project = join(workspace, 'project');
  const scope = join(project, 'node_modules', '@patchbay');
  mkdirSync(scope, { recursive: true });
  const connectorIds = readdirSync(join(repositoryRoot, 'connectors'));
  for (const id of connectorIds) {
    symlinkSync(join(repositoryRoot, 'connectors', id), join(scope, `connector-${id}`), 'dir');
  }
  const home = join(workspace, 'home');
  mkdirSync(home);
  const secretKey = Buffer.alloc(32, 7).toString('base64');
  const store = openStore({ home, secretKey });
  await store.saveConnection('default', {
    connectorId: 'github',
    credentials: { token: 'bench-github-token' },
    scopes: ['repo'],
  });
  await store.saveConnection('default', {
    connectorId: 'slack',
    credentials: { token: 'bench-slack-token' },
    scopes: ['chat:write', 'channels:read'],
  });
  store.close();
  const env = { PATH: process.env.PATH ?? '', HOME: workspace, PATCHBAY_SECRET_KEY: secretKey };
  const options = { cwd: project, env, home };

  const cases = {
    node_e_0: () => cpuToExit(process.execPath, ['-e', '0'], options),
    version: () => cpuToExit(process.execPath, [cli, '--version'], options),
    connectors_json: () =>
      cpuToExit(process.execPath, [cli, '--home', home, 'connectors', '--json'], options),
    mcp_first_tools_list: async () => (await mcpToFirstList(options)).cpu,
  };
  // One warm-up of each: fills the OS file cache and Node's compile cache, as for an operator.
  const warm = await mcpToFirstList(options);
  for (const run of Object.values(cases)) await run();

  const samples = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  const ratios = Object.fromEntries(
    Object.keys(cases)
      .filter((name) => name !== 'node_e_0')
      .map((name) => [name, []]),
  );
  for (let round = 0; round < rounds; round += 1) {
    const measured = {};
    for (const name of shuffled(Object.keys(cases))) measured[name] = await cases[name]();
    for (const [name, cpu] of Object.entries(measured)) {
      samples[name].push(cpu);
      if (name !== 'node_e_0') ratios[name].push(cpu / measured.node_e_0);
    }
  }

  const result = {
    benchmark: 'cli-startup',
    description:
      'CPU (user + system, all threads) of the built patchbay binary until its answer, against node -e 0 in the same round; ' +
      `${connectorIds.length} real connector packages installed, 2 connected; ratios per round, median with p10–p90 and min–max`,
    node: process.version,
    cpus: cpus().length,
    load_average_at_start: loadavg().map((value) => Math.round(value * 100) / 100),
    rounds,
    tools_listed: warm.tools,
    target: `patchbay mcp CPU to its first tools/list answer <= ${target}x node -e 0`,
    cpu_ms: Object.fromEntries(Object.entries(samples).map(([name, values]) => [name, summary(values)])),
    ratio_to_node_e_0: Object.fromEntries(
      Object.entries(ratios).map(([name, values]) => [name, summary(values)]),
    ),
    measured_at: new Date().toISOString(),
  };
  result.meets_target = result.ratio_to_node_e_0.mcp_first_tools_list.median <= target;
  if (process.env.BENCH_LABEL) result.label = process.env.BENCH_LABEL;
  const output = process.env.BENCH_OUTPUT ?? resultsFile;
  mkdirSync(dirname(output), { recursive: true });
  writeFileSync(output, `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    JSON.stringify({ cpu_ms: result.cpu_ms, ratio_to_node_e_0: result.ratio_to_node_e_0 }, null, 2),
  );
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
