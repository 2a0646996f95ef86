#!/usr/bin/env node
// Summarises a Stryker JSON report (evals/mutation/*/mutation.json): per file, mutants killed (a
// scenario failed), timed out (counted as detected, as Stryker does), survived, and the score; then
// every survivor with its line, mutator and replacement, so a note can say why each survives.
//   node evals/scripts/mutation-summary.mjs evals/mutation/eval/mutation.json
import { readFileSync } from 'node:fs';

const report = JSON.parse(readFileSync(process.argv[2] ?? 'evals/mutation/eval/mutation.json', 'utf8'));
const survivors = [];
const total = { killed: 0, timeout: 0, survived: 0, other: 0 };
for (const [file, { mutants }] of Object.entries(report.files)) {
  const count = { killed: 0, timeout: 0, survived: 0, other: 0 };
  for (const mutant of mutants) {
    const key =
      mutant.status === 'Killed'
        ? 'killed'
        : mutant.status === 'Timeout'
          ? 'timeout'
          : mutant.status === 'Survived'
            ? 'survived'
            : 'other';
    count[key] += 1;
    if (key === 'survived' || key === 'other')
      survivors.push(
        `${file}:${mutant.location.start.line} ${mutant.mutatorName} → ${JSON.stringify(mutant.replacement ?? '')} (${mutant.status})`,
      );
  }
  const detected = count.killed + count.timeout;
  const valid = detected + count.survived;
  console.log(
    `${file}: ${detected}/${valid} detected (${((100 * detected) / valid).toFixed(1)} %): ${count.killed} killed, ${count.timeout} timed out, ${count.survived} survived${count.other ? `, ${count.other} other` : ''}`,
  );
  for (const key of Object.keys(total)) total[key] += count[key];
}
const detected = total.killed + total.timeout;
const valid = detected + total.survived;
console.log(`all: ${detected}/${valid} detected (${((100 * detected) / valid).toFixed(1)} %)`);
for (const line of survivors) console.log(`  survived: ${line}`);
