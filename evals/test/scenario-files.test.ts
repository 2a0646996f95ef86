// The repository's own scenario files: every one validates, and an invalid one stops `pnpm eval`
// before anything runs. (The format's validator itself is tested in packages/eval.)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateScenarioFile } from '@patchbay/eval';
import { afterAll, describe, expect, it } from 'vitest';
import { evalCatalog, loadScenarios, readScenarioFiles, scenarioDirectory } from './harness.js';

const catalog = evalCatalog();

// A valid scenario; the invalid files below break one line of it.
const valid = `id: example
title: An example
connectors: { github: connected, slack: not_configured }
turns:
  - at: 2026-11-21T15:00:00Z
    user: List the open issues in acme/web
    expect:
      called_ok: [github_list_issues]
      not_called: [slack_post_message]
`;

describe('the committed scenario files', () => {
  it('every file validates, and every scenario in them loads', () => {
    const yamlFiles = readdirSync(scenarioDirectory).filter((name) => name.endsWith('.yaml'));
    for (const name of yamlFiles) {
      const path = join(scenarioDirectory, name);
      const { problems } = validateScenarioFile(readFileSync(path, 'utf8'), path, catalog);
      expect(
        problems.map((problem) => problem.format()),
        name,
      ).toEqual([]);
    }
    expect(readScenarioFiles()).toHaveLength(yamlFiles.length);
    expect(loadScenarios().length).toBeGreaterThan(yamlFiles.length);
  });
});

describe('an invalid scenario file stops `pnpm eval` before anything runs', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'patchbay-eval-scenarios-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  // A Node process that loads the harness and exits: seconds, more on a loaded machine.
  it('lists every problem of every file with file:line and exits 1, no stack trace', {
    timeout: 120_000,
  }, () => {
    const scenarios = join(scratch, 'scenarios');
    const results = join(scratch, 'results');
    mkdirSync(scenarios);
    writeFileSync(join(scenarios, 'a-typo.yaml'), valid.replace('called_ok:', 'caled_ok:'));
    writeFileSync(join(scenarios, 'b-broken.yaml'), 'id: broken\ntitle: [unclosed\n');
    const run = spawnSync(process.execPath, ['scripts/run-eval.mjs'], {
      cwd: join(import.meta.dirname, '..'),
      encoding: 'utf8',
      env: { ...process.env, PATCHBAY_EVAL_SCENARIOS: scenarios, PATCHBAY_EVAL_RESULTS: results },
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      /a-typo\.yaml:8:7: turns\[0\]\.expect\.caled_ok: unknown key "caled_ok"; did you mean "called_ok"\?/,
    );
    expect(run.stderr).toMatch(/b-broken\.yaml:\d+:\d+: YAML: /);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    // Nothing ran: no progress line, no promptfoo config or results.
    expect(run.stdout).not.toContain('PASS');
    expect(readdirSync(results)).toEqual(['summary.json']);
    expect(JSON.parse(readFileSync(join(results, 'summary.json'), 'utf8'))).toMatchObject({
      passed: 0,
      failed: 1,
    });
  });
});
