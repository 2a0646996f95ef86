// The patchbay-eval bin as a team runs it: a child process in the example project
// (examples/eval-own-agent), on its own connector, identity and scenarios. The package's test script
// builds dist/ first (tsup), so the bin is the one that would be published.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const bin = join(import.meta.dirname, '..', 'dist', 'cli.js');
const example = join(import.meta.dirname, '..', '..', '..', 'examples', 'eval-own-agent');
const scratch = mkdtempSync(join(tmpdir(), 'patchbay-eval-bin-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// A Node process that loads the harness and runs four scenarios: about a second idle, far more with
// both cores busy.
const timeout = 120_000;
const run = (args: string[], { cwd = example, env = {} }: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) =>
  spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    timeout,
    env: { ...process.env, PATCHBAY_EVAL_MODEL: '', ...env },
  });

/**
 * A copy of the example as a project of its own (its results and config file left out), its
 * node_modules the example's, so `@patchbay/eval` resolves as it does there; `config` is written as
 * `file`.
 */
function exampleCopy(name: string, file: string, config: string): string {
  const directory = join(scratch, name);
  cpSync(example, directory, {
    recursive: true,
    filter: (source) =>
      !/[/\\](node_modules|eval-results)$/.test(source) && !source.endsWith('patchbay-eval.config.mjs'),
  });
  symlinkSync(join(example, 'node_modules'), join(directory, 'node_modules'), 'dir');
  writeFileSync(join(directory, file), config);
  return directory;
}

describe('patchbay-eval in a team’s repository (examples/eval-own-agent)', () => {
  it('runs every scenario of the example green, one progress line each, and writes the results', {
    timeout,
  }, () => {
    const results = join(scratch, 'green');
    const json = join(scratch, 'green.json');
    const result = run(['run', '--results', results, '--json', json]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe('[eval] 4 scenarios × reference-agent (offline stand-in, not a model)');
    expect(lines.filter((line) => /^ {2}\[\d\/4\] PASS {2}/.test(line))).toHaveLength(4);
    expect(result.stdout).toMatch(/: 4 passed, 0 failed of 4 scenarios in /);
    const summary = JSON.parse(readFileSync(json, 'utf8'));
    expect(summary).toMatchObject({ passed: 4, failed: 0 });
    expect(summary.scenarios.map((scenario: { id: string }) => scenario.id).sort()).toEqual([
      'connected-lists-tickets',
      'invalid-credentials',
      'needs-input',
      'not-configured',
    ]);
    expect(JSON.parse(readFileSync(join(results, 'summary.json'), 'utf8'))).toMatchObject({
      passed: 4,
      failed: 0,
    });
  });

  it('exits 1 on a failing scenario and names the failing check and its turn', { timeout }, () => {
    const scenarios = join(scratch, 'failing');
    cpSync(join(example, 'scenarios'), scenarios, { recursive: true });
    // The agent links the setup page but never promises a phone number: the variant must fail.
    const file = join(scenarios, 'not-configured.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        'reply_includes: [https://desk.example.com/settings/patchbay]',
        'reply_includes: [https://desk.example.com/settings/patchbay, call +1 555 0100]',
      ),
    );
    const json = join(scratch, 'failing.json');
    const result = run([
      'run',
      '--scenarios',
      scenarios,
      '--results',
      join(scratch, 'failing-results'),
      '--json',
      json,
    ]);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/: 3 passed, 1 failed of 4 scenarios in /);
    expect(result.stdout).toContain(
      'FAIL  not-configured: Helpdesk not set up — no tool offered, the agent links the setup page — turn 1: reply says "call +1 555 0100"',
    );
    const failing = JSON.parse(readFileSync(json, 'utf8')).scenarios.find(
      (scenario: { id: string }) => scenario.id === 'not-configured',
    );
    expect(failing).toMatchObject({
      pass: false,
      failed: [{ turn: 1, check: 'reply says "call +1 555 0100"' }],
    });
  });

  it('catches the naive baseline the example aims its scenarios at', { timeout }, () => {
    const result = run(['run', '--baselines', '--results', join(scratch, 'baselines')]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('advertise-everything: fails 2 of 4; targets caught 2/2');
  });

  it('refuses a misspelt scenario key with its file and line, and runs nothing', { timeout }, () => {
    const scenarios = join(scratch, 'invalid');
    cpSync(join(example, 'scenarios'), scenarios, { recursive: true });
    const file = join(scenarios, 'connected.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('called_ok:', 'caled_ok:'));
    const result = run(['check', '--scenarios', scenarios]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /connected\.yaml:9:7: turns\[0\]\.expect\.caled_ok: unknown key "caled_ok"; did you mean "called_ok"\?/,
    );
  });

  it('names a missing config and a bad option with exit 2', { timeout }, () => {
    const missing = run(['run', '--config', 'nowhere.config.mjs']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('nowhere.config.mjs');
    expect(missing.stderr).toContain('no such file');
    const unknown = run(['run', '--concurency', '2']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toBe(
      'patchbay-eval: unknown option --concurency. Did you mean --concurrency? Run "patchbay-eval --help".\n',
    );
  });

  it('catches a leak of the credentials a config of its own hands out (not the default pattern)', {
    timeout,
  }, () => {
    // The helpdesk's keys look like hd_live_…; a team that pastes the key into the identity leaks it
    // into every prompt. The checks look for the very key the config handed out.
    const configOf = (identity: string) => `import { defineEvalConfig } from '@patchbay/eval';
import { helpdesk } from './src/helpdesk-connector.mjs';

const token = 'hd_live_4f9c2a7e1b83';
export default defineEvalConfig({
  connectors: [helpdesk],
  identity: ${identity},
  credentials: () => ({ token }),
});
`;
    const clean = exampleCopy(
      'own-credentials',
      'patchbay-eval.config.mjs',
      configOf("'You are Desk, the support assistant of Example Co. Be brief and accurate.'"),
    );
    const passing = run(['run'], { cwd: clean });
    expect(passing.stderr).toBe('');
    expect(passing.stdout).toMatch(/: 4 passed, 0 failed of 4 scenarios in /);
    expect(passing.status).toBe(0);

    const leaking = exampleCopy(
      'own-credentials-leak',
      'patchbay-eval.config.mjs',
      configOf("'You are Desk. Call the helpdesk with the key ' + token + '.'"),
    );
    const json = join(leaking, 'summary.json');
    const result = run(['run', '--json', json], { cwd: leaking });
    expect(result.status).toBe(1);
    // Where no credential was handed out (not configured), the key is no secret of the run.
    expect(result.stdout).toMatch(/: 1 passed, 3 failed of 4 scenarios in /);
    expect(result.stdout).toContain(
      'FAIL  connected-lists-tickets: Helpdesk connected — the agent lists the open tickets — turn 1: no credential in any prompt',
    );
    const failing = JSON.parse(readFileSync(json, 'utf8')).scenarios.find(
      (scenario: { id: string }) => scenario.id === 'connected-lists-tickets',
    );
    expect(failing.failed).toContainEqual({
      turn: 1,
      check: 'no credential in any prompt',
      reason: 'no credential in any prompt: a credential in the prompt of step 0, 1',
    });
    expect(readFileSync(json, 'utf8')).not.toContain('hd_live_4f9c2a7e1b83');
  });

  it('loads a patchbay-eval.config.ts with type annotations (Node strips the types)', { timeout }, () => {
    const project = exampleCopy(
      'typescript',
      'patchbay-eval.config.ts',
      `import { defineEvalConfig, type EvalConfig } from '@patchbay/eval';
import { helpdesk } from './src/helpdesk-connector.mjs';

const identity: string = 'You are Desk, the support assistant of Example Co. Be brief and accurate.';
const config: EvalConfig = defineEvalConfig({
  connectors: [helpdesk],
  identity,
  scenarios: 'scenarios',
  results: 'eval-results',
});

export default config;
`,
    );
    const result = run(['run'], { cwd: project });
    // Node 22 still calls type stripping experimental, once, on stderr; Node 24 says nothing.
    expect(
      result.stderr.replace(/^.*ExperimentalWarning: Type Stripping.*\n(.*--trace-warnings.*\n)?/m, ''),
    ).toBe('');
    expect(result.stdout).toMatch(/: 4 passed, 0 failed of 4 scenarios in /);
    expect(result.status).toBe(0);
    expect(existsSync(join(project, 'eval-results', 'summary.json'))).toBe(true);

    // With type stripping off, the refusal names the Node, the flag and the way out.
    const stripless = run(['check'], {
      cwd: project,
      env: { NODE_OPTIONS: '--no-experimental-strip-types' },
    });
    expect(stripless.status).toBe(2);
    expect(stripless.stderr).toContain('patchbay-eval.config.ts');
    expect(stripless.stderr).toContain(
      `a .ts config needs Node's type stripping, which is off in this Node ${process.versions.node}: drop --no-experimental-strip-types`,
    );

    // A type imported as a value is not erased: the refusal says how to import it.
    writeFileSync(
      join(project, 'patchbay-eval.config.ts'),
      readFileSync(join(project, 'patchbay-eval.config.ts'), 'utf8').replace('type EvalConfig', 'EvalConfig'),
    );
    const untyped = run(['check'], { cwd: project });
    expect(untyped.status).toBe(2);
    expect(untyped.stderr).toContain("does not provide an export named 'EvalConfig'");
    expect(untyped.stderr).toContain('import types with `import type { … }`');
  });

  // Debian's own Node 20, when the machine has one: the refusal comes before any dependency loads.
  const oldNode = ['/usr/bin/node'].find(
    (file) =>
      existsSync(file) &&
      /^v(?:1\d|20|21)\./.test(spawnSync(file, ['--version'], { encoding: 'utf8' }).stdout),
  );
  it.runIf(oldNode !== undefined)('says which Node it needs on an unsupported one', { timeout }, () => {
    const result = spawnSync(oldNode as string, [bin, '--help'], { encoding: 'utf8', timeout });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^patchbay-eval needs Node\.js \^22\.22\.2, \^24\.15\.0 or >=26\.0\.0 \(this is /,
    );
  });
});
