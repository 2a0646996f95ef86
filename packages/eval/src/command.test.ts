// runCommand in this process, on the example project's config: the answers to a mistyped command line
// and to a model that cannot run, before anything runs.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runCommand } from './command.js';

const example = join(import.meta.dirname, '..', '..', '..', 'examples', 'eval-own-agent');
const scratch = mkdtempSync(join(tmpdir(), 'patchbay-eval-command-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

/** Runs the command with its lines captured; the example's config unless `--config` is given. */
async function command(argv: string[]) {
  const lines: string[] = [];
  const errors: string[] = [];
  const code = await runCommand(argv, {
    cwd: example,
    output: { print: (line) => lines.push(line), printError: (line) => errors.push(line) },
  });
  return { code, lines, errors: errors.join('\n') };
}

describe('a mistyped flag', () => {
  it.each([
    [['run', '--concurency', '2'], 'unknown option --concurency. Did you mean --concurrency?'],
    [['run', '--agnet', 'reference'], 'unknown option --agnet. Did you mean --agent?'],
    [['check', '--scenario', 'x'], 'unknown option --scenario. Did you mean --scenarios?'],
    [['run', '--promptfo'], 'unknown option --promptfo. Did you mean --promptfoo?'],
    [['run', '--zzzzzzzz'], 'unknown option --zzzzzzzz.'],
    [['run', '-x'], 'unknown option -x.'],
    [['run', '--config'], '--config needs a value, as in --config <value>.'],
    [['run', '--baselines=yes'], '--baselines takes no value.'],
  ])('%j answers in one line with exit 2: %s', async (argv, message) => {
    const result = await command(argv);
    expect(result.code).toBe(2);
    expect(result.errors).toBe(`patchbay-eval: ${message} Run "patchbay-eval --help".`);
    expect(result.errors).not.toContain('ERR_PARSE_ARGS');
    expect(result.lines).toEqual([]);
  });
});

describe('a model that cannot run', () => {
  // The safety property: with a model that cannot run, nothing runs and nothing is written — no
  // progress line, no results directory, so no summary.json for the next `pnpm test` to count.
  const refusedBeforeTheFirstScenario = async (argv: string[]) => {
    const results = join(scratch, `results-${Math.random().toString(36).slice(2)}`);
    const result = await command(['run', '--results', results, ...argv]);
    const scenarioLines = result.lines.filter((line) => /^\s+\[\d+\/\d+\]/.test(line));
    expect({ scenarioLines, resultsWritten: existsSync(results) }).toEqual({
      scenarioLines: [],
      resultsWritten: false,
    });
    expect(result.lines).toEqual([]);
    expect(result.code).toBe(2);
    return result.errors;
  };

  it('refuses PATCHBAY_EVAL_MODEL=openai:… without OPENAI_API_KEY before the first scenario', async () => {
    vi.stubEnv('PATCHBAY_EVAL_MODEL', 'openai:gpt-4.1-mini');
    vi.stubEnv('OPENAI_API_KEY', '');
    expect(await refusedBeforeTheFirstScenario([])).toBe(
      'patchbay-eval: PATCHBAY_EVAL_MODEL is "openai:gpt-4.1-mini", which needs OPENAI_API_KEY in the environment, and it is not set. Set it, or run without PATCHBAY_EVAL_MODEL for the offline reference agent. Nothing ran.',
    );
  });

  it('refuses --agent anthropic:… without ANTHROPIC_API_KEY', async () => {
    vi.stubEnv('PATCHBAY_EVAL_MODEL', '');
    vi.stubEnv('ANTHROPIC_API_KEY', '');
    expect(await refusedBeforeTheFirstScenario(['--agent', 'anthropic:claude-sonnet-4-5'])).toContain(
      '--agent is "anthropic:claude-sonnet-4-5", which needs ANTHROPIC_API_KEY',
    );
  });

  it('refuses a misspelt provider, an unknown agent and a malformed server spec with the usage code', async () => {
    vi.stubEnv('PATCHBAY_EVAL_MODEL', 'opnai:gpt-4.1-mini');
    expect(await refusedBeforeTheFirstScenario([])).toMatch(
      /^patchbay-eval: PATCHBAY_EVAL_MODEL is "opnai:gpt-4\.1-mini": unknown provider "opnai"\. Did you mean openai:\? Expected openai:<model>, anthropic:<model>, ollama:<model>, <base URL>\|<model>, reference or a baseline \(advertise-everything, stale-status, retry-same-call\)\. Nothing ran\.$/,
    );
    vi.stubEnv('PATCHBAY_EVAL_MODEL', 'stale-stat');
    expect(await refusedBeforeTheFirstScenario([])).toContain('not an agent. Did you mean stale-status?');
    vi.stubEnv('PATCHBAY_EVAL_MODEL', 'openai:');
    expect(await refusedBeforeTheFirstScenario([])).toContain('no model after "openai:"');
    vi.stubEnv('PATCHBAY_EVAL_MODEL', 'localhost:8000/v1|qwen3');
    expect(await refusedBeforeTheFirstScenario([])).toContain('written <base URL>|<model>');
  });

  it('lets a model with its key, a local one, a baseline and the baselines run past the check', async () => {
    // --filter that matches nothing: past the agent check the run stops at "no scenario matches",
    // exit 1, so no model is called.
    for (const [spec, key] of [
      ['openai:gpt-4.1-mini', 'OPENAI_API_KEY'],
      ['anthropic:claude-sonnet-4-5', 'ANTHROPIC_API_KEY'],
      ['ollama:qwen3', undefined],
      ['http://localhost:8000/v1|qwen3', undefined],
      ['stale-status', undefined],
    ] as const) {
      vi.stubEnv('PATCHBAY_EVAL_MODEL', spec);
      if (key) vi.stubEnv(key, 'sk-test-key-not-used');
      const result = await command(['run', '--filter', '^no-such-scenario$', '--results', scratch]);
      expect({ spec, code: result.code, errors: result.errors }).toEqual({
        spec,
        code: 1,
        errors: '[eval] no scenario matches --filter ^no-such-scenario$',
      });
    }
    vi.stubEnv('PATCHBAY_EVAL_MODEL', 'openai:gpt-4.1-mini');
    vi.stubEnv('OPENAI_API_KEY', '');
    const baselines = await command(['run', '--baselines', '--filter', '^none$', '--results', scratch]);
    expect(baselines.code).toBe(1);
  });
});
