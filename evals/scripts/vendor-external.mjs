#!/usr/bin/env node
// Copies the slices of external test data the scenarios use into evals/data/, unchanged line by
// line, with their licences, so the suite runs from the repository alone.
// Usage: node scripts/vendor-external.mjs <external-dir>
// <external-dir> is wherever you keep the upstream files (there is no default: the data lives
// outside this repository and only the slices below are vendored):
//   bfcl/BFCL_v4_irrelevance.json, bfcl/BFCL_v4_multi_turn_miss_param.json, bfcl/LICENSE
//     (BFCL v4, ShishirPatil/gorilla, Apache-2.0; one JSON object per line)
//   agentdojo/attacks.json, agentdojo/LICENSE (ethz-spylab/agentdojo, MIT)
// Every file is checked before anything is written, so a wrong directory changes nothing.
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

const here = new URL('..', import.meta.url).pathname;
const usage =
  'Usage: node scripts/vendor-external.mjs <external-dir>   (holding bfcl/ and agentdojo/; see the comment at the top of this script)';
const [argument] = process.argv.slice(2);
if (argument === undefined || argument === '--help' || argument === '-h') {
  (argument === undefined ? console.error : console.log)(usage);
  process.exit(argument === undefined ? 2 : 0);
}
const external = resolve(argument);
const scenarios = (name) => parse(readFileSync(join(here, 'scenarios', name), 'utf8'));

const irrelevance = scenarios('15-bfcl-irrelevance.yaml').bfcl_irrelevance;
const missParam = scenarios('16-bfcl-miss-param.yaml').bfcl_miss_param;
const needed = [
  `bfcl/${irrelevance.file}`,
  `bfcl/${missParam.file}`,
  'bfcl/LICENSE',
  'agentdojo/attacks.json',
  'agentdojo/LICENSE',
];
const missing = needed.filter((file) => !existsSync(join(external, file)));
if (missing.length > 0) {
  console.error(`vendor-external: ${external} lacks ${missing.join(', ')}; nothing was copied.\n${usage}`);
  process.exit(2);
}

function slice(file, ids) {
  const wanted = new Set(ids);
  const lines = readFileSync(join(external, 'bfcl', file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && wanted.has(JSON.parse(line).id));
  writeFileSync(join(here, 'data/bfcl', file.replace(/\.json$/, '.jsonl')), `${lines.join('\n')}\n`);
  console.log(`bfcl/${file}: ${lines.length} cases`);
}

slice(irrelevance.file, irrelevance.ids);
slice(
  missParam.file,
  missParam.cases.map((item) => item.id),
);
copyFileSync(join(external, 'bfcl/LICENSE'), join(here, 'data/bfcl/LICENSE'));
copyFileSync(join(external, 'agentdojo/attacks.json'), join(here, 'data/agentdojo/attacks.json'));
copyFileSync(join(external, 'agentdojo/LICENSE'), join(here, 'data/agentdojo/LICENSE'));
console.log('agentdojo/attacks.json and licences copied');
