// A quick look at one agent on the scenarios, in this process: `node scripts/try.mjs [agent] [filter] [show]`
// (agent: reference or a baseline name; show: print every turn's message and reply).
import { join } from 'node:path';
import { agentFor, checkScenario, loadEvalConfig, loadScenarios, runScenario } from '@patchbay/eval';

const config = await loadEvalConfig(join(import.meta.dirname, '..', 'patchbay-eval.config.mjs'));
const which = process.argv[2] ?? 'reference';
let pass = 0,
  fail = 0;
for (const scenario of loadScenarios(config, { filter: process.argv[3] })) {
  const run = await runScenario(scenario, agentFor(which === 'reference' ? '' : which), config);
  const result = checkScenario(scenario, run);
  if (result.pass) pass++;
  else fail++;
  console.log(
    result.pass ? 'PASS' : 'FAIL',
    scenario.id,
    result.failed
      .map((f) => `[t${f.turn}] ${f.reason}`)
      .join(' | ')
      .slice(0, 700),
  );
  if (process.argv[4])
    for (const t of run.turns) console.log('  >', t.user, '\n  <', t.reply.replaceAll('\n', ' / '));
}
console.log(pass, 'passed', fail, 'failed');
