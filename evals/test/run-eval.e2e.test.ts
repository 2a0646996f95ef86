import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// One real `pnpm eval:baselines` run on one two-turn scenario (promptfoo, the provider, the hook, the
// report), into a scratch results directory. Every baseline fails long-gap: advertise-everything in
// its first turn, the other two in the second.
describe('pnpm eval, end to end', () => {
  const results = mkdtempSync(join(tmpdir(), 'patchbay-eval-results-'));
  let run: ReturnType<typeof spawnSync<string>>;
  beforeAll(() => {
    run = spawnSync(process.execPath, ['scripts/run-eval.mjs', '--baselines', '--filter', '^long-gap$'], {
      cwd: join(import.meta.dirname, '..'),
      encoding: 'utf8',
      env: { ...process.env, PATCHBAY_EVAL_RESULTS: results },
    });
  }, 300_000);
  afterAll(() => rmSync(results, { recursive: true, force: true }));

  it('prints one line per scenario and agent as each finishes, then the summary, nothing else', () => {
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toBe('[eval] 1 scenario × 3 agents');
    const progress = lines.slice(1, 4);
    // Scenarios run four at a time, so which agent's line comes first varies.
    expect(progress.map((line) => line.slice(0, 8))).toEqual(['  [1/3] ', '  [2/3] ', '  [3/3] ']);
    expect(progress.map((line) => line.slice(8)).sort()).toEqual([
      'FAIL  advertise-everything  long-gap: Long conversation gap — turn 1: calls only offered tools (+2 more)',
      'FAIL  retry-same-call       long-gap: Long conversation gap — turn 2: slack_post_message ran and succeeded (+1 more)',
      'FAIL  stale-status          long-gap: Long conversation gap — turn 2: slack_post_message ran and succeeded (+1 more)',
    ]);
    expect(lines[4]).toBe('');
    expect(lines[5]).toMatch(/^\[eval:baselines\] scenarios each naive baseline fails/);
    expect(lines.at(-2)).toMatch(/^\[eval:baselines\] every baseline fails the scenarios aimed at it/);
    // Then the scenarios × agents page and its PNG, beside promptfoo's report.
    expect(lines.at(-1)).toBe(
      `[eval] matrix: 1 scenarios × 3 agents → ${join(results, 'matrix.html')} and ${join(results, 'matrix.png')}`,
    );
    expect(run.stdout).not.toMatch(/Starting evaluation|promptfoo view|Writing output|Eval complete/);
  });

  it('writes a report whose columns say what they hold and whose failing rows show the failing turn', () => {
    const html = readFileSync(join(results, 'baselines-report.html'), 'utf8');
    const header = html.slice(html.indexOf('<thead'), html.indexOf('</thead>'));
    expect(header).not.toContain('{{');
    const columns = [...header.matchAll(/<th scope="col">([^<]*)<\/th>/g)].map((match) => match[1]);
    expect(columns).toEqual([
      'scenario',
      'title',
      'user',
      '[advertise-everything (naive baseline stand-in)] transcript: turns, tool calls, replies',
      '[stale-status (naive baseline stand-in)] transcript: turns, tool calls, replies',
      '[retry-same-call (naive baseline stand-in)] transcript: turns, tool calls, replies',
    ]);
    expect(html).toContain('<div class="cell-content variable-text">Long conversation gap</div>');
    expect(html).toContain(
      '<div class="cell-content variable-text">1. Post &#39;Weekly report is ready&#39; to #team on Slack\n2. OK, do it now</div>',
    );

    // advertise-everything failed turn 1 of 2: its cell shows turn 1's reply and the failing check.
    const rows = JSON.parse(readFileSync(join(results, 'baselines-results.json'), 'utf8')).results.results;
    const row = rows.find(
      (item: { provider: { id: string } }) => item.provider.id === 'patchbay:advertise-everything',
    );
    const firstReply: string = row.response.metadata.run.turns[0].reply;
    const cells = [...html.matchAll(/<div class="output-text">([\s\S]*?)<\/div>/g)].map((match) => match[1]!);
    const asHtml = (text: string) =>
      text
        .replaceAll('&', '&amp;')
        .replaceAll('<', '&lt;')
        .replaceAll('>', '&gt;')
        .replaceAll('"', '&quot;')
        .replaceAll("'", '&#39;');
    expect(
      cells.some((cell) => cell.includes(`Reply: ${asHtml(firstReply)}`) && cell.includes('Turn 2')),
    ).toBe(true);
    expect(html).toContain(
      'turn 1 (&quot;Post &#39;Weekly report is ready&#39; to #team on Slack&quot;): calls only offered tools',
    );

    // The page scrolls, not a box inside it.
    expect(html).toContain('.table-shell { max-height: none; overflow: visible; }');
  });
});
