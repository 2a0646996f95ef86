import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { baselines } from './agents/baselines.js';
import { checkScenario } from './checks/index.js';
import { standInScenarioFile, standInScenarios } from './eval-fixtures.test-helper.js';
import { failureLines, fixReportLayout, transcriptOf, userMessagesOf } from './report.js';
import { runScenario } from './run-scenario.js';

const scratch = mkdtempSync(join(tmpdir(), 'patchbay-eval-report-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const { config, scenarios } = standInScenarios(scratch, standInScenarioFile);
const scenario = (id: string) => scenarios.find((candidate) => candidate.id === id)!;

describe('what the report shows of a run', () => {
  it('every turn with its message, tool calls and reply, so a failing earlier turn is visible', async () => {
    const longGap = scenario('long-gap');
    // advertise-everything fails the first of the two turns: it tries Slack although it is not connected
    // (not offered, so the turn refuses the call without sending it).
    const run = await runScenario(longGap, baselines['advertise-everything']!(), config);
    const result = checkScenario(longGap, run);
    expect(result.failed[0]!.turn).toBe(1);

    const transcript = transcriptOf(longGap, run);
    expect(transcript).toContain(
      `Turn 1 · 2026-11-16T09:00:00Z\nUser: ${longGap.turns[0]!.user}\nTools: slack_post_message (not sent: not_offered)`,
    );
    expect(transcript).toContain(`Reply: ${run.turns[0]!.reply}`);
    expect(transcript).toContain(`Turn 2 · 2026-11-20T15:00:00Z\nUser: OK, do it now`);
    expect(transcript.indexOf('Turn 1')).toBeLessThan(transcript.indexOf('Turn 2'));

    const [first] = failureLines(longGap, result);
    expect(first).toMatch(
      /^turn 1 \("Post 'Weekly report is ready' to #team on Slack"\): calls only offered tools: /,
    );
  });

  it('a failing reply check names the check only: the transcript above it shows the reply', async () => {
    const noConnectors = scenario('no-connectors');
    const run = await runScenario(noConnectors, baselines['advertise-everything']!(), config);
    const lines = failureLines(noConnectors, checkScenario(noConnectors, run));
    expect(lines).toContain('turn 1 ("What can you do?"): reply says "Available after setup"');
    expect(lines.join('\n')).not.toContain(run.turns[0]!.reply.slice(0, 40));
  });

  it('a long message is cut in the failure line', () => {
    const long = { turns: [{ at: '2026-11-21T15:00:00Z', user: 'x'.repeat(80) }] };
    const failed = [
      { turn: 1, name: 'makes no tool call', pass: false, reason: 'makes no tool call: called a' },
    ];
    expect(failureLines(long, { failed })).toEqual([
      `turn 1 ("${'x'.repeat(57)}…"): makes no tool call: called a`,
    ]);
  });

  it('the user column numbers the messages of a multi-turn scenario', () => {
    expect(userMessagesOf(scenario('long-gap'))).toBe(
      "1. Post 'Weekly report is ready' to #team on Slack\n2. OK, do it now",
    );
    expect(userMessagesOf(scenario('tool-failure'))).toBe('Show me pull request #999 in acme/web');
  });
});

describe("the layout fix of promptfoo's report", () => {
  const template = readFileSync(
    join(dirname(createRequire(import.meta.url).resolve('promptfoo')), 'tableOutput.html'),
    'utf8',
  );

  it("lifts the height limit of promptfoo's inner scroll box, once", () => {
    // The box this fixes: at most 72 % of the window, scrolling on its own.
    expect(template).toMatch(/\.table-shell \{\s*max-height: min\(72vh, 980px\);\s*overflow: auto;/);
    const fixed = fixReportLayout(template);
    const style = fixed.slice(fixed.indexOf('data-patchbay="layout"'), fixed.indexOf('</head>'));
    expect(style).toContain('.table-shell { max-height: none; overflow: visible; }');
    expect(style).toContain('.report-panel { overflow: visible; }');
    // After promptfoo's own styles, so it wins the cascade.
    expect(fixed.indexOf('data-patchbay="layout"')).toBeGreaterThan(template.lastIndexOf('</style>'));
    expect(fixReportLayout(fixed)).toBe(fixed);
  });

  it('fails loudly when a promptfoo upgrade changes the parts it fixes', () => {
    expect(() => fixReportLayout('<html><head></head><body><table></table></body></html>')).toThrow(
      /promptfoo report layout changed/,
    );
  });
});
