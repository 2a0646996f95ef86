// Benchmark: wall time of `patchbay connectors` and `patchbay context` with 50 connectors,
// process start included (what an operator waits for). Writes bench/results/cli.json at the repo root.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '@patchbay/store';
import { syntheticModule } from './synthetic-connector.mjs';

const packageDirectory = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(packageDirectory, 'dist', 'cli.js');
const resultsFile = join(packageDirectory, '..', '..', 'bench', 'results', 'cli.json');
const connectorCount = 50;
const runs = Number(process.env.BENCH_RUNS ?? 10);
function percentile(sorted, fraction) {
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

function measure(args, env) {
  const times = [];
  // One warm-up run so the OS file cache is filled, as for an operator typing commands.
  execFileSync(process.execPath, [cli, ...args], { env, stdio: 'ignore' });
  for (let run = 0; run < runs; run += 1) {
    const started = process.hrtime.bigint();
    execFileSync(process.execPath, [cli, ...args], { env, stdio: 'ignore' });
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  const round = (value) => Math.round(value * 10) / 10;
  return {
    runs,
    p50_ms: round(percentile(times, 0.5)),
    p90_ms: round(percentile(times, 0.9)),
    min_ms: round(times[0]),
  };
}

const home = mkdtempSync(join(tmpdir(), 'patchbay-cli-bench-'));
try {
  const modules = join(home, 'connectors');
  mkdirSync(modules);
  const entries = [];
  for (let index = 0; index < connectorCount; index += 1) {
    const id = `synth${String(index).padStart(2, '0')}`;
    writeFileSync(join(modules, `${id}.mjs`), syntheticModule(id));
    entries.push({ module: `./connectors/${id}.mjs` });
  }
  writeFileSync(join(home, 'patchbay.config.json'), JSON.stringify({ connectors: entries }, null, 2));
  const secretKey = Buffer.alloc(32, 4).toString('base64');
  // Half the connectors connected, a few disabled or invalid: a realistic mix of statuses.
  const store = openStore({ home, secretKey });
  for (let index = 0; index < connectorCount; index += 2) {
    const id = `synth${String(index).padStart(2, '0')}`;
    await store.saveConnection('default', {
      connectorId: id,
      credentials: { token: `token-${id}` },
      scopes: ['read', 'write'],
    });
  }
  await store.disableConnector('synth01');
  await store.recordFailedVerification('default', 'synth03', 'revoked');
  store.close();

  const env = { PATH: process.env.PATH ?? '', HOME: home, PATCHBAY_SECRET_KEY: secretKey };
  const baseline = measure(['--version'], env);
  const connectors = measure(['--home', home, 'connectors'], env);
  const connectorsJson = measure(['--home', home, 'connectors', '--json'], env);
  const context = measure(['--home', home, 'context'], env);
  const result = {
    benchmark: 'cli',
    description: `Wall time of the built patchbay binary with ${connectorCount} connectors (process start included), p50 over ${runs} runs`,
    node: process.version,
    cpus: cpus().length,
    connectors: connectorCount,
    target_ms: 300,
    results: { version_baseline: baseline, connectors, connectors_json: connectorsJson, context },
    measured_at: new Date().toISOString(),
  };
  mkdirSync(dirname(resultsFile), { recursive: true });
  writeFileSync(resultsFile, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result.results, null, 2));
} finally {
  if (!process.env.BENCH_KEEP) rmSync(home, { recursive: true, force: true });
  else console.log(home);
}
