#!/usr/bin/env node
// Copies the slices of external test data the scenarios use into evals/data/, unchanged line by
// line, with their licences, so the suite runs from the repository alone.
// Usage: node scripts/vendor-external.mjs [/path/to/external]   (default /work/shared/external)
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const external = process.argv[2] ?? '/work/shared/external';
const here = new URL('..', import.meta.url).pathname;
const scenarios = (name) => parse(readFileSync(join(here, 'scenarios', name), 'utf8'));

function slice(file, ids) {
  const wanted = new Set(ids);
  const lines = readFileSync(join(external, 'bfcl', file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && wanted.has(JSON.parse(line).id));
  writeFileSync(join(here, 'data/bfcl', file.replace(/\.json$/, '.jsonl')), `${lines.join('\n')}\n`);
  console.log(`bfcl/${file}: ${lines.length} cases`);
}

const irrelevance = scenarios('15-bfcl-irrelevance.yaml').bfcl_irrelevance;
slice(irrelevance.file, irrelevance.ids);
const missParam = scenarios('16-bfcl-miss-param.yaml').bfcl_miss_param;
slice(
  missParam.file,
  missParam.cases.map((item) => item.id),
);
copyFileSync(join(external, 'bfcl/LICENSE'), join(here, 'data/bfcl/LICENSE'));
copyFileSync(join(external, 'agentdojo/attacks.json'), join(here, 'data/agentdojo/attacks.json'));
copyFileSync(join(external, 'agentdojo/LICENSE'), join(here, 'data/agentdojo/LICENSE'));
console.log('agentdojo/attacks.json and licences copied');
