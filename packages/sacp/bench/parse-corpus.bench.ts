// SACP parser benchmark over the messy-output corpus: how often the parse matches the expected
// result, how often it yields a real (non-fallback) reply, and throughput in parses/s and MB/s.
// Writes bench/results/sacp.json at the repository root.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusText, loadCorpus, mismatches } from '../src/corpus/corpus.js';
import { parseSacp } from '../src/index.js';

const resultsPath = fileURLToPath(new URL('../../../bench/results/sacp.json', import.meta.url));
const warmupPasses = 20;
const minimumMeasureMs = 2000;
const typicalLimitBytes = 10_000;

const corpus = loadCorpus().map((entry) => {
  const text = corpusText(entry.input);
  return { ...entry, text, bytes: Buffer.byteLength(text, 'utf8') };
});

const failures: Array<{ name: string; problems: string[] }> = [];
let nonFallback = 0;
let expectedNonFallback = 0;
for (const entry of corpus) {
  const result = parseSacp(entry.text);
  const problems = mismatches(result, entry.expect);
  if (problems.length > 0) failures.push({ name: entry.name, problems });
  if (!result.fallback) nonFallback += 1;
  if (entry.expect.fallback !== true) expectedNonFallback += 1;
}

function measure(entries: typeof corpus): {
  parsesPerSecond: number;
  megabytesPerSecond: number;
  passes: number;
} {
  const bytesPerPass = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  for (let pass = 0; pass < warmupPasses; pass += 1) for (const entry of entries) parseSacp(entry.text);
  let passes = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < minimumMeasureMs) {
    for (const entry of entries) parseSacp(entry.text);
    passes += 1;
    elapsed = performance.now() - started;
  }
  const seconds = elapsed / 1000;
  return {
    parsesPerSecond: Math.round((passes * entries.length) / seconds),
    megabytesPerSecond: Number(((passes * bytesPerPass) / 1_000_000 / seconds).toFixed(2)),
    passes,
  };
}

const typical = corpus.filter((entry) => entry.bytes <= typicalLimitBytes);
const report = {
  benchmark: 'sacp/parse-corpus',
  generatedAt: new Date().toISOString(),
  node: process.version,
  method:
    'parseSacp (no data schema) over every case of src/corpus/messy-outputs.json. matchRate = share of cases whose ok, status, fallback and listed repairs/data match the expectation; nonFallbackRate = share of cases that yield the model reply rather than the fallback wrapper (expectedNonFallbackRate is the share the corpus expects). Throughput: whole corpus parsed repeatedly for at least 2 s after 20 warm-up passes; "typical" excludes cases over 10 kB.',
  corpus: {
    cases: corpus.length,
    bytes: corpus.reduce((sum, entry) => sum + entry.bytes, 0),
    typicalCases: typical.length,
  },
  matchRate: Number(((corpus.length - failures.length) / corpus.length).toFixed(4)),
  nonFallbackRate: Number((nonFallback / corpus.length).toFixed(4)),
  expectedNonFallbackRate: Number((expectedNonFallback / corpus.length).toFixed(4)),
  mismatches: failures,
  throughput: {
    all: measure(corpus),
    typical: measure(typical),
  },
};

await mkdir(dirname(resultsPath), { recursive: true });
await writeFile(resultsPath, `${JSON.stringify(report, null, 2)}\n`);
console.log(JSON.stringify({ ...report, method: undefined }, null, 2));
