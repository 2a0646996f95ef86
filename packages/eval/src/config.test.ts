import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConnector, defineTool } from '@patchbay/connector';
import { success } from '@patchbay/envelope';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EvalConfigError, evalConfigProblems, loadEvalConfig, resolveEvalConfig } from './config.js';
import {
  catalogOf,
  checkScenario,
  createReferenceAgent,
  loadScenarios,
  runScenario,
  validateScenarioFile,
} from './index.js';

const notes = defineConnector({
  id: 'notes',
  name: 'Notes',
  description: 'Team notes.',
  auth: { kind: 'bearer', scopes: [] },
  capabilities: ['search notes'],
  wouldEnable: ['Find what the team wrote down'],
  setupUrl: 'https://notes.example.com/connect',
  verify: async () => ({ valid: true, scopes: [] }),
  tools: [
    defineTool({
      name: 'notes_search',
      description: 'Search the team notes.',
      input: z.object({ query: z.string().describe('What to look for') }),
      effect: 'read',
      execute: async ({ query }) => success([{ title: `Notes on ${query}` }]),
    }),
  ],
});

const scratch = mkdtempSync(join(tmpdir(), 'patchbay-eval-config-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the eval config', () => {
  it('names every problem of a bad config by its path', () => {
    expect(
      evalConfigProblems({
        connectors: [notes, { id: 'x' }, notes],
        identity: 'a',
        systemPrompt: 'b',
        modle: 'openai:gpt-4.1',
        service: { responses: [] },
      }),
    ).toEqual([
      'modle: unknown key',
      'connectors[1]: specificationVersion is not "v1" (build it with defineConnector)',
      'connectors[1]: has no tools list',
      'connectors[2]: connector id "notes" is used twice',
      'systemPrompt: give either identity or systemPrompt, not both',
      'service.run: required',
    ]);
    expect(evalConfigProblems({})).toEqual([
      'connectors: required: a list of connectors or a function returning one',
    ]);
  });

  it('resolves paths against the config file and throws a coded error naming the file', async () => {
    const resolved = resolveEvalConfig(
      { connectors: [notes] },
      { file: join(scratch, 'patchbay-eval.config.mjs') },
    );
    expect(resolved.scenarios).toBe(join(scratch, 'scenarios'));
    expect(resolved.results).toBe(join(scratch, 'eval-results'));
    const file = join(scratch, 'broken.config.mjs');
    writeFileSync(file, 'export default { connectors: 3 };\n');
    const error = await loadEvalConfig(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(EvalConfigError);
    expect((error as EvalConfigError).message).toContain(file);
    expect((error as EvalConfigError).problems).toEqual([
      'connectors: required: a list of connectors or a function returning one',
    ]);
  });
});

describe('scenarios against a project’s own connectors', () => {
  const config = resolveEvalConfig({ connectors: [notes], identity: 'You are Quill.' }, { base: scratch });
  const catalog = catalogOf(config);
  const problemsOf = (text: string) =>
    validateScenarioFile(text, join(scratch, 'a.yaml'), catalog).problems.map((problem) =>
      problem.format(scratch),
    );

  it('validates tool and connector names against the config, not the Patchbay repository', () => {
    const scenario = `id: a\ntitle: A\nconnectors: { notes: connected }\nturns:\n  - at: 2026-11-21T15:00:00Z\n    user: Search the notes for onboarding\n    expect: { called_ok: [notes_serch], not_called: [github_list_issues] }\n`;
    expect(problemsOf(scenario)).toEqual([
      'a.yaml:7:27: turns[0].expect.called_ok[0]: unknown tool "notes_serch"; did you mean "notes_search"?',
      'a.yaml:7:54: turns[0].expect.not_called[0]: unknown tool "github_list_issues"',
    ]);
  });

  it('refuses the keys whose extension the config does not provide', () => {
    const scenario = `id: a\ntitle: A\nmcp: { lab: up }\nmemory: up\nturns:\n  - at: 2026-11-21T15:00:00Z\n    user: Hi\n`;
    expect(problemsOf(scenario)).toEqual([
      'a.yaml:3:1: mcp: "mcp" needs `mcp` in the eval config',
      'a.yaml:4:1: memory: "memory" needs `memory` in the eval config',
    ]);
  });

  it('runs a scenario on the config’s connectors with its identity in the system prompt', async () => {
    writeFileSync(
      join(scratch, 'search.yaml'),
      `id: search\ntitle: Search\nconnectors: { notes: connected }\nturns:\n  - at: 2026-11-21T15:00:00Z\n    user: Search the notes for onboarding\n    expect: { called_ok: [notes_search] }\n`,
    );
    const [scenario] = loadScenarios(config, { directory: scratch });
    const run = await runScenario(scenario!, createReferenceAgent(), config);
    expect(checkScenario(scenario!, run).failed).toEqual([]);
    const prompt = run.turns[0]!.trace.steps[0]!.prompt;
    expect(String(prompt[0]!.content)).toMatch(/^You are Quill\./);
    expect(String(prompt[0]!.content)).toContain('- notes (');
    expect(run.turns[0]!.sideEffects).toEqual([{ tool: 'notes_search', input: { query: 'onboarding' } }]);
  });
});

describe('runners: a runner left out of `all`', () => {
  const loop = async () => {
    throw new Error('not run here');
  };
  const directory = mkdtempSync(join(scratch, 'runners-'));
  const scenario = (id: string, runners: string) =>
    `id: ${id}\ntitle: ${id}\nconnectors: { notes: connected }\nrunners: ${runners}\nturns:\n  - at: 2026-11-21T15:00:00Z\n    user: Hi\n`;
  writeFileSync(join(directory, 'a.yaml'), scenario('a', 'all'));
  writeFileSync(join(directory, 'b.yaml'), scenario('b', '[chain]'));
  const config = resolveEvalConfig(
    { connectors: [notes], runners: { loop, chain: { run: loop, inAll: false } } },
    { base: scratch },
  );

  it('runs `all` through every runner but those marked inAll: false, which run where a scenario names them', () => {
    expect(loadScenarios(config, { directory }).map((scenario) => scenario.id)).toEqual([
      'a',
      'a@loop',
      'b',
      'b@chain',
    ]);
  });

  it('accepts { run, inAll } and names a runner entry that is neither a function nor one', () => {
    expect(
      evalConfigProblems({ connectors: [notes], runners: { chain: { run: loop, inAll: false } } }),
    ).toEqual([]);
    expect(evalConfigProblems({ connectors: [notes], runners: { chain: { inAll: 'no' } } })).toEqual([
      "runners.chain: must be a function (runTurn's contract) or { run, inAll? }",
      'runners.chain.inAll: must be true or false',
    ]);
  });
});
