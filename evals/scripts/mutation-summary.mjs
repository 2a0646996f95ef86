#!/usr/bin/env node
// Summarises a Stryker JSON report (evals/mutation/*/mutation.json): per file, mutants killed (a
// scenario failed), timed out (counted as detected, as Stryker does), survived, and the score; then
// every survivor with its id, line, mutator and replacement, so a note can say why each survives.
// With the run's before/after log (evals/mutation/eval/before-after.jsonl, written by
// scripts/mutation-command.mjs) it also gives the score of the scenarios that existed before the newest
// ones; extra logs (same format, e.g. mutants checked by hand on the same instrumented build) override
// the verdicts of the mutants they name.
// With `--kills <file regex>`: for the killed mutants of the matching files, how many scenarios kill
// them, from the report's `killedBy` (a `pnpm mutate:eval:wide` run lists up to two there) and the
// logs' `killers` (a `PATCHBAY_MUTATE_KILLERS=1` run, or `mutation-recheck.mjs --kills`), and the
// mutants only one scenario kills.
//   node evals/scripts/mutation-summary.mjs evals/mutation/eval/mutation.json [log.jsonl ...] [--kills <regex>]
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
const killsIndex = argv.indexOf('--kills');
const killFiles = killsIndex >= 0 ? new RegExp(argv[killsIndex + 1]) : undefined;
if (killsIndex >= 0) argv.splice(killsIndex, 2);
// `--equivalent <json>`: survivors argued equivalent (evals/mutation/SURVIVORS.md), by Stryker id or by
// file, line, column, mutator (and replacement): left out of the score and counted apart.
const equivalentIndex = argv.indexOf('--equivalent');
const equivalents =
  equivalentIndex >= 0 ? JSON.parse(readFileSync(argv[equivalentIndex + 1], 'utf8')).mutants : [];
if (equivalentIndex >= 0) argv.splice(equivalentIndex, 2);
const isEquivalent = (file, mutant) =>
  equivalents.some((entry) =>
    entry.id !== undefined
      ? entry.id === String(mutant.id) && (entry.file === undefined || entry.file === file)
      : entry.file === file &&
        entry.line === mutant.location.start.line &&
        entry.column === mutant.location.start.column &&
        entry.mutatorName === mutant.mutatorName &&
        (entry.replacement === undefined || entry.replacement === mutant.replacement),
  );
const [reportFile = 'evals/mutation/eval/mutation.json', ...logFiles] = argv;
const report = JSON.parse(readFileSync(reportFile, 'utf8'));
const verdicts = new Map();
for (const file of logFiles)
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const entry = JSON.parse(line);
    verdicts.set(String(entry.mutant), entry);
  }

// `Ignored`: a mutant a `// Stryker disable` comment excludes (with its reason in the source). The
// score leaves them out, as Stryker does; `raw` counts them as undetected.
const kindOf = (status) =>
  status === 'Killed'
    ? 'killed'
    : status === 'Timeout'
      ? 'timeout'
      : status === 'Survived'
        ? 'survived'
        : status === 'Ignored'
          ? 'ignored'
          : 'other';
const percent = (detected, valid) => (valid ? ((100 * detected) / valid).toFixed(1) : '–');

/** A mutant's verdict: Stryker's, unless a log names it; `before` from the log (timeouts count alike). */
function verdictOf(mutant) {
  const stryker = kindOf(mutant.status);
  const logged = verdicts.get(String(mutant.id));
  if (stryker === 'timeout' || stryker === 'other' || stryker === 'ignored')
    return { after: stryker, before: stryker };
  if (!logged) return { after: stryker, before: undefined };
  return { after: logged.after === 'killed' ? 'killed' : stryker, before: logged.before };
}

const survivors = [];
const rows = [];
/** A tally per verdict, and of the `before` verdicts a log gave. */
const emptyCount = () => ({
  killed: 0,
  timeout: 0,
  survived: 0,
  ignored: 0,
  other: 0,
  equivalent: 0,
  beforeDetected: 0,
  beforeKnown: 0,
});
const total = emptyCount();
for (const [file, { mutants }] of Object.entries(report.files)) {
  const count = emptyCount();
  for (const mutant of mutants) {
    const verdict = verdictOf(mutant);
    const after = verdict.after === 'survived' && isEquivalent(file, mutant) ? 'equivalent' : verdict.after;
    const { before } = verdict;
    count[after] += 1;
    if (before !== undefined && after !== 'other' && after !== 'ignored' && after !== 'equivalent') {
      count.beforeKnown += 1;
      if (before !== 'survived') count.beforeDetected += 1;
    }
    if (after === 'survived' || after === 'other' || after === 'ignored')
      survivors.push(
        `#${mutant.id} ${file}:${mutant.location.start.line} ${mutant.mutatorName} → ${JSON.stringify(
          (mutant.replacement ?? '').slice(0, 80),
        )} (${after === 'survived' ? 'Survived' : mutant.status})`,
      );
  }
  const detected = count.killed + count.timeout;
  const valid = detected + count.survived;
  const before =
    logFiles.length > 0
      ? ` | before: ${count.beforeDetected}/${count.beforeKnown} (${percent(count.beforeDetected, count.beforeKnown)} %)`
      : '';
  const raw = count.ignored
    ? `; raw ${detected}/${valid + count.ignored} (${percent(detected, valid + count.ignored)} %, ${count.ignored} disabled counted as undetected)`
    : '';
  rows.push(
    `${file}: ${detected}/${valid} detected (${percent(detected, valid)} %): ${count.killed} killed, ${count.timeout} timed out, ${count.survived} survived${count.equivalent ? `, ${count.equivalent} equivalent (left out)` : ''}${count.other ? `, ${count.other} other` : ''}${raw}${before}`,
  );
  for (const key of Object.keys(total)) total[key] += count[key];
}
for (const row of rows) console.log(row);
const detected = total.killed + total.timeout;
const valid = detected + total.survived;
console.log(
  `all: ${detected}/${valid} detected (${percent(detected, valid)} %)${
    total.ignored
      ? `; raw ${detected}/${valid + total.ignored} (${percent(detected, valid + total.ignored)} %)`
      : ''
  }${
    logFiles.length > 0
      ? ` | before: ${total.beforeDetected}/${total.beforeKnown} (${percent(total.beforeDetected, total.beforeKnown)} %)`
      : ''
  }`,
);
for (const line of survivors) console.log(`  survived: ${line}`);
// How many scenarios kill each killed mutant, and the mutants that rest on a single one (a second,
// independent scenario is due where the behaviour is safety-critical): from a log of a
// `PATCHBAY_MUTATE_KILLERS=1` run, or the report's `killedBy` for the `--kills` files, a log's list
// winning where it names more.
// A Stryker report names tests by id; its `testFiles` say which scenario each id is.
const testNames = new Map(
  Object.values(report.testFiles ?? {}).flatMap((file) => file.tests.map((test) => [test.id, test.name])),
);
const killersOf = new Map();
if (killFiles)
  for (const [file, { mutants }] of Object.entries(report.files))
    if (killFiles.test(file))
      for (const mutant of mutants)
        if (mutant.status === 'Killed' && mutant.killedBy?.length)
          killersOf.set(String(mutant.id), {
            mutant: String(mutant.id),
            killers: mutant.killedBy.map((id) => testNames.get(id) ?? id),
          });
for (const entry of verdicts.values())
  if (
    Array.isArray(entry.killers) &&
    entry.killers.length >= (killersOf.get(String(entry.mutant))?.killers.length ?? 1)
  )
    killersOf.set(String(entry.mutant), entry);
const counted = [...killersOf.values()].filter((entry) => entry.killers.length > 0);
if (counted.length > 0) {
  const histogram = new Map();
  for (const entry of counted) {
    const bucket = entry.killers.length >= 2 ? '2+' : '1';
    histogram.set(bucket, (histogram.get(bucket) ?? 0) + 1);
  }
  const where = new Map(
    Object.entries(report.files).flatMap(([file, { mutants }]) =>
      mutants.map((mutant) => [
        String(mutant.id),
        `${file}:${mutant.location.start.line} ${mutant.mutatorName}`,
      ]),
    ),
  );
  console.log(
    `killed by one scenario: ${histogram.get('1') ?? 0}, by two or more: ${histogram.get('2+') ?? 0}`,
  );
  for (const entry of counted.filter((item) => item.killers.length === 1))
    console.log(
      `  one killer: #${entry.mutant} ${where.get(String(entry.mutant)) ?? ''} ← ${entry.killers[0]}`,
    );
}
