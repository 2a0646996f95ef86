// Benchmark: what the first `countTokens` costs a fresh process (a CLI run such as `patchbay context`).
// Each sample is a new `node` process: import, then count the 50-connector per-turn block once.
// Runs against dist after bench/turns.ts and adds `tokenizerStartup` to bench/results/protocol.json.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { captureStatus, createInMemoryStatusSource, renderTurnContext } from '../dist/index.js';
import { syntheticConnectors } from './synthetic-connectors.ts';

const here = dirname(fileURLToPath(import.meta.url));
const outputPath = resolve(here, '../../../bench/results/protocol.json');
const tokensUrl = pathToFileURL(resolve(here, '../dist/tokens.js')).href;
const samples = 12;

/** Child program for one option: prints {importMs, firstCountMs, tokens} measured from inside the process. */
function program(option: string, text: string, ranksPath: string): string {
  const load: Record<string, string> = {
    // What ships: importing `@patchbay/protocol/tokens` does not load the encoding; the first call requires it.
    shipped: `const { countTokens } = await import(${JSON.stringify(tokensUrl)});
      const imported = performance.now();
      const count = (text) => countTokens(text);`,
    // The ESM o200k_base entry imported eagerly, as a static import at the top of the package would.
    'esm-o200k-entry': `const encoding = await import('gpt-tokenizer/encoding/o200k_base');
      const imported = performance.now();
      const count = (text) => encoding.countTokens(text, { disallowedSpecial: new Set() });`,
    // The package main entry (every encoding's API, o200k_base as the default).
    'main-entry': `const encoding = await import('gpt-tokenizer');
      const imported = performance.now();
      const count = (text) => encoding.countTokens(text, { disallowedSpecial: new Set() });`,
    // Evaluated, not shipped: the rank table as JSON (JSON.parse is faster than evaluating the 2.4 MB
    // array literal) handed to gpt-tokenizer's undocumented GptEncoding class.
    'json-ranks': `const { readFileSync } = await import('node:fs');
      const { GptEncoding } = await import('gpt-tokenizer/GptEncoding');
      const ranks = JSON.parse(readFileSync(${JSON.stringify(ranksPath)}, 'utf8'));
      const encoding = GptEncoding.getEncodingApi('o200k_base', () => ranks);
      const imported = performance.now();
      const count = (text) => encoding.countTokens(text, { disallowedSpecial: new Set() });`,
  };
  return `
    const started = performance.now();
    ${load[option]}
    const before = performance.now();
    const tokens = count(${JSON.stringify(text)});
    const counted = performance.now();
    console.log(JSON.stringify({ importMs: imported - started, firstCountMs: counted - before, sinceStartMs: counted, tokens }));
  `;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Number(sorted[Math.floor(sorted.length / 2)]!.toFixed(1));
}

// The text counted: the 50-connector block with four in ten connected, as the compact+catalog run has it.
const connectors = syntheticConnectors(50);
const source = createInMemoryStatusSource();
connectors.forEach((connector, index) => {
  if (index % 10 < 4) {
    const scopes = connector.auth.scopes.map((scope) => scope.name);
    source.connect('ana', connector.id, { credentials: { token: `t-${index}` }, scopes });
  }
});
const snapshot = await captureStatus({
  connectors,
  source,
  subject: 'ana',
  now: new Date('2026-11-21T09:00:00Z'),
});
const text = renderTurnContext(snapshot, { connectors, catalogInSystemPrompt: true });

const options = ['shipped', 'esm-o200k-entry', 'main-entry', 'json-ranks'];
const cacheDirectory = mkdtempSync(join(tmpdir(), 'patchbay-compile-cache-'));
const ranksPath = join(cacheDirectory, 'o200k_base.json');
writeFileSync(
  ranksPath,
  JSON.stringify(createRequire(import.meta.url)('gpt-tokenizer/bpeRanks/o200k_base').default),
);
const runs: Record<
  string,
  { importMs: number; firstCountMs: number; sinceStartMs: number; wallMs: number; tokens: number }[]
> = {};
try {
  const run = (option: string, compileCache: boolean) => {
    const env = { ...process.env };
    delete env.NODE_OPTIONS;
    // Same effect as module.enableCompileCache(), which the CLI calls first thing.
    if (compileCache) env.NODE_COMPILE_CACHE = join(cacheDirectory, option);
    else delete env.NODE_COMPILE_CACHE;
    const started = performance.now();
    const output = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', program(option, text, ranksPath)],
      {
        cwd: here,
        env,
        encoding: 'utf8',
      },
    );
    return { ...JSON.parse(output), wallMs: performance.now() - started };
  };
  // Fill the compile caches once, then interleave options so load on the machine hits them alike.
  for (const option of options) run(option, true);
  for (let sample = 0; sample < samples; sample += 1) {
    for (const option of options) {
      for (const compileCache of [false, true]) {
        const key = `${option}${compileCache ? '+compile-cache' : ''}`;
        runs[key] = [...(runs[key] ?? []), run(option, compileCache)];
      }
    }
  }
  const baseline: number[] = [];
  for (let sample = 0; sample < samples; sample += 1) {
    const started = performance.now();
    execFileSync(process.execPath, ['-e', '0']);
    baseline.push(performance.now() - started);
  }

  const results = Object.fromEntries(
    Object.entries(runs).map(([key, values]) => [
      key,
      {
        importMsP50: median(values.map((value) => value.importMs)),
        firstCountMsP50: median(values.map((value) => value.firstCountMs)),
        importPlusFirstCountMsP50: median(values.map((value) => value.importMs + value.firstCountMs)),
        processWallMsP50: median(values.map((value) => value.wallMs)),
        processWallMsMin: Number(Math.min(...values.map((value) => value.wallMs)).toFixed(1)),
        tokens: values[0]!.tokens,
      },
    ]),
  );
  const report = {
    method: `${samples} fresh node processes per option, interleaved; each imports, then counts the 50-connector compact+catalog block (${text.length} characters) once. importMs and firstCountMs are measured inside the process; processWallMs includes node startup (bare node: p50 ${median(baseline)} ms).`,
    nodeStartupMsP50: median(baseline),
    options: results,
  };
  const existing = JSON.parse(readFileSync(outputPath, 'utf8'));
  writeFileSync(outputPath, `${JSON.stringify({ ...existing, tokenizerStartup: report }, null, 2)}\n`);

  console.log(
    'option                         | import ms | first count ms | import+count ms | process wall p50/min ms',
  );
  for (const [key, value] of Object.entries(results)) {
    console.log(
      [
        key.padEnd(30),
        String(value.importMsP50).padStart(9),
        String(value.firstCountMsP50).padStart(14),
        String(value.importPlusFirstCountMsP50).padStart(15),
        `${value.processWallMsP50}/${value.processWallMsMin}`.padStart(23),
      ].join(' | '),
    );
  }
  console.log(
    `bare node startup p50 ${report.nodeStartupMsP50} ms; every option counted ${Object.values(results)[0]!.tokens} tokens`,
  );
  console.log(`added tokenizerStartup to ${outputPath}`);
} finally {
  rmSync(cacheDirectory, { recursive: true, force: true });
}
