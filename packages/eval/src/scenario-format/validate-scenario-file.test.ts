import { describe, expect, it } from 'vitest';
import { fullCatalog } from '../eval-fixtures.test-helper.js';
import { closestName } from './closest-name.js';
import { validateScenarioFile } from './validate-scenario-file.js';

const file = '/evals/scenarios/example.yaml';
const problemsOf = (text: string) =>
  validateScenarioFile(text, file, fullCatalog).problems.map((problem) => ({
    line: problem.line,
    message: problem.message,
    suggestion: problem.suggestion,
    text: problem.format('/evals'),
  }));

// A valid scenario; each test breaks one line of it.
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

describe('scenario files are validated against the format', () => {
  it('accepts the example the other cases break', () => {
    expect(problemsOf(valid)).toEqual([]);
  });

  it('rejects a misspelt check key with its file, line and the key that was meant', () => {
    const problems = problemsOf(valid.replace('called_ok:', 'caled_ok:'));
    expect(problems).toEqual([
      {
        line: 8,
        message: 'unknown key "caled_ok"',
        suggestion: 'called_ok',
        text: 'scenarios/example.yaml:8:7: turns[0].expect.caled_ok: unknown key "caled_ok"; did you mean "called_ok"?',
      },
    ]);
  });

  it('rejects an unknown key at the top, suggesting a scenario key or another file form', () => {
    expect(problemsOf(valid.replace('title:', 'titel:'))).toContainEqual(
      expect.objectContaining({ line: 2, message: 'unknown key "titel"', suggestion: 'title' }),
    );
    expect(problemsOf(`scenario:\n  - ${valid.replaceAll('\n', '\n    ')}`)).toContainEqual(
      expect.objectContaining({ line: 1, suggestion: 'scenarios' }),
    );
  });

  it('rejects an unknown connector id (it used to crash the run with "reading \'auth\'")', () => {
    const problems = problemsOf(valid.replace('{ github: connected', '{ gitub: connected'));
    expect(problems).toEqual([
      expect.objectContaining({ line: 3, message: 'unknown connector "gitub"', suggestion: 'github' }),
    ]);
    expect(problems[0]!.text).toMatch(/^scenarios\/example\.yaml:3:\d+: connectors\.gitub: /);
  });

  it('rejects an unknown tool name, in checks, args and fixtures', () => {
    expect(problemsOf(valid.replace('[slack_post_message]', '[slack_post_mesage]'))).toEqual([
      expect.objectContaining({
        line: 9,
        message: 'unknown tool "slack_post_mesage"',
        suggestion: 'slack_post_message',
      }),
    ]);
    const withArgs = `${valid}      args: [{ tool: github_list_issues, field: rep, equals: acme/web }]\n`;
    expect(problemsOf(withArgs)).toEqual([
      expect.objectContaining({
        line: 10,
        message: 'unknown input field "rep" of github_list_issues',
        suggestion: 'repo',
      }),
    ]);
    const withFixture = valid.replace('turns:', 'fixtures: { github_list_isues: [] }\nturns:');
    expect(problemsOf(withFixture)).toEqual([
      expect.objectContaining({ line: 4, suggestion: 'github_list_issues' }),
    ]);
  });

  it('knows which tools a scenario has: the real packages, not the stand-ins, under packages:', () => {
    const packaged = valid.replace('connectors:', 'packages: [github, slack]\nconnectors:');
    // github_list_issues is a stand-in tool; the real GitHub connector has no such tool.
    expect(problemsOf(packaged)).toEqual([
      expect.objectContaining({ line: 9, message: 'unknown tool "github_list_issues"' }),
    ]);
    expect(problemsOf(valid.replace('connectors:', 'packages: [githb]\nconnectors:'))).toContainEqual(
      expect.objectContaining({
        line: 3,
        message: 'unknown connector package "githb"',
        suggestion: 'github',
      }),
    );
  });

  it('rejects a misspelt value of a closed set, naming the one meant', () => {
    expect(problemsOf(valid.replace('not_configured', 'not_configred'))).toEqual([
      expect.objectContaining({ line: 3, suggestion: 'not_configured' }),
    ]);
    expect(problemsOf(valid.replace('called_ok: [github_list_issues]', 'outcome: asked'))).toEqual([
      expect.objectContaining({ line: 8, suggestion: 'asked_user' }),
    ]);
  });

  it('rejects a missing required key, a malformed time and a flag set to false', () => {
    expect(problemsOf(valid.replace('title: An example\n', ''))).toEqual([
      expect.objectContaining({ line: 1, message: '"title" is required' }),
    ]);
    expect(problemsOf(valid.replace('2026-11-21T15:00:00Z', '2026-11-21 15:00'))).toEqual([
      expect.objectContaining({ line: 5, message: expect.stringContaining('ISO 8601') }),
    ]);
    expect(problemsOf(`${valid}      no_tool_calls: false\n`)).toEqual([
      expect.objectContaining({ line: 10, message: expect.stringContaining('write `true`') }),
    ]);
  });

  it('rejects keys that only make sense on the real packages when the scenario runs on stand-ins', () => {
    const problems = problemsOf(`${valid}      no_service_requests: true\n`);
    expect(problems).toEqual([
      expect.objectContaining({ line: 10, message: expect.stringContaining('needs `packages:`') }),
    ]);
  });

  it('checks the external data a file names: BFCL ids and AgentDojo tasks', () => {
    const bfcl = `bfcl_irrelevance:
  file: BFCL_v4_irrelevance.json
  ids: [irrelevance_0, irrelevance_10x]
  connectors: { github: connected }
  expect: { no_tool_calls: true }
`;
    expect(problemsOf(bfcl)).toEqual([
      expect.objectContaining({
        line: 3,
        message: 'unknown BFCL id "irrelevance_10x"',
        suggestion: 'irrelevance_10',
      }),
    ]);
    const injected = valid.replace(
      'turns:',
      'agentdojo: { attack: important_instructions, suite: slack, task: InjectionTask99 }\nturns:',
    );
    expect(problemsOf(injected)).toEqual([
      expect.objectContaining({ line: 4, message: expect.stringContaining('InjectionTask99') }),
    ]);
  });

  it('knows the tools of a scenario’s MCP servers and memory, and checks their keys', () => {
    const withServer = valid
      .replace('turns:', 'mcp: { lab: { state: up, timeout_ms: 2000 } }\nturns:')
      .replace('called_ok: [github_list_issues]', 'called_ok: [lab_hang]');
    expect(problemsOf(withServer)).toEqual([]);
    expect(problemsOf(withServer.replace('[lab_hang]', '[lab_hangs]'))).toContainEqual(
      expect.objectContaining({ message: 'unknown tool "lab_hangs"', suggestion: 'lab_hang' }),
    );
    expect(problemsOf(withServer.replace('state: up', 'state: gone'))).toContainEqual(
      expect.objectContaining({ message: '"gone" is not one of "up", "down"' }),
    );
    // A server of JSON-Schema-only tools is asked for with a flag, a boolean.
    expect(problemsOf(withServer.replace('timeout_ms: 2000', 'json_schema_tools: true'))).toEqual([]);
    expect(
      problemsOf(withServer.replace('timeout_ms: 2000', 'json_schema_tools: yes please')),
    ).toContainEqual(expect.objectContaining({ line: 4, message: expect.stringContaining('boolean') }));
    // Memory checks and memory moves need memory on the scenario; with it, its tools are known.
    const memoryCheck = valid.replace(
      '      not_called:',
      '      memory: { context: loaded }\n      not_called:',
    );
    expect(problemsOf(memoryCheck)).toContainEqual(
      expect.objectContaining({ message: '"memory" checks need `memory:` on the scenario' }),
    );
    expect(problemsOf(valid.replace('    user:', '    memory: down\n    user:'))).toContainEqual(
      expect.objectContaining({ message: '"memory" needs `memory:` on the scenario' }),
    );
    const withMemory = memoryCheck
      .replace('turns:', 'memory: up\nturns:')
      .replace('not_called: [slack_post_message]', 'not_called: [put_context]');
    expect(problemsOf(withMemory)).toEqual([]);
  });

  it('reports a YAML syntax error as one problem with its file and line, not a stack trace', () => {
    const problems = problemsOf(
      valid.replace('user: List the open issues in acme/web', 'user: [List the open issues'),
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]!.text).toMatch(/^scenarios\/example\.yaml:\d+:\d+: YAML: /);
    expect(problems[0]!.line).toBeGreaterThanOrEqual(6);
    expect(problems[0]!.text).not.toMatch(/\n\s+at /);
  });

  it('suggests only names close enough to be a typo', () => {
    expect(closestName('caled_ok', ['called_ok', 'not_called'])).toBe('called_ok');
    expect(closestName('irrelevance_10x', ['irrelevance_1', 'irrelevance_10'])).toBe('irrelevance_10');
    expect(closestName('deploy', ['called_ok', 'not_called'])).toBeUndefined();
  });
});
