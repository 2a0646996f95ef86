import { baselines } from '../agents/baselines.mjs';
import { createReferenceAgent } from '../agents/reference-agent.mjs';
import { checkScenario } from '../lib/checks.mjs';
import { loadScenarios } from '../lib/load-scenarios.mjs';
import { runScenario } from '../lib/run-scenario.mjs';

const which = process.argv[2] ?? 'reference';
let pass = 0,
  fail = 0;
for (const scenario of loadScenarios(process.argv[3])) {
  const model = which === 'reference' ? createReferenceAgent() : baselines[which]();
  const run = await runScenario(scenario, model);
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
