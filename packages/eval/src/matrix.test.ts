import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildMatrix, firstFailedCheck, renderMatrixHtml } from './matrix.js';
import { writeMatrix } from './write-matrix.js';

const row = (scenario: string, provider: string, success: boolean, reason?: string) => ({
  vars: { scenario, title: `${scenario} title` },
  provider: { id: `patchbay:${provider}`, label: provider },
  success,
  gradingResult: success
    ? { pass: true, reason: 'All assertions passed' }
    : {
        pass: false,
        reason: 'outer',
        componentResults: [
          { pass: true, reason: 'turn 1: ok' },
          {
            pass: false,
            reason: 'group',
            componentResults: [{ pass: false, reason: reason ?? 'turn 1: bad' }],
          },
        ],
      },
});

const temp = mkdtempSync(join(tmpdir(), 'patchbay-matrix-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe('the scenarios × agents matrix', () => {
  it('has a cell per scenario and agent with the first failing check, depth first', () => {
    const matrix = buildMatrix([
      [row('a', 'reference', true), row('b', 'reference', true)],
      [row('a', 'naive', false, 'turn 1: calls only offered tools: called x'), row('b', 'naive', true)],
    ]);
    expect(matrix.agents.map((agent) => agent.label)).toEqual(['reference', 'naive']);
    expect(matrix.cells.a?.['patchbay:naive']).toEqual({
      pass: false,
      failedCheck: 'turn 1: calls only offered tools: called x',
    });
    expect(matrix.cells.b?.['patchbay:naive']).toEqual({ pass: true });
    expect(firstFailedCheck({ pass: true })).toBeUndefined();
  });

  it('renders pass and fail in words, totals per agent, and escapes what the checks say', () => {
    const matrix = buildMatrix([
      [row('a', 'reference', true)],
      [row('a', 'naive', false, 'reply says "<script>alert(1)</script>"')],
    ]);
    const html = renderMatrixHtml(matrix);
    expect(html).toContain('<td class="pass">PASS</td>');
    expect(html).toContain(
      'FAIL<span class="check">reply says &quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;',
    );
    expect(html).not.toContain('<script>');
    expect(html).toContain('1/1 passed');
    expect(html).toContain('0/1 passed');
    expect(html).toMatch(/<th scope="row"><span class="id">a<\/span>/);
  });

  // A real browser (Debian's chromium through playwright-core) starts in a few seconds, far more on a
  // busy machine: two minutes so only a hang fails it.
  it('writes the page and a PNG of it from the results files', { timeout: 120_000 }, async () => {
    const results = { results: { results: [row('a', 'reference', true), row('b', 'reference', false)] } };
    writeFileSync(join(temp, 'results.json'), JSON.stringify(results));
    const written = await writeMatrix(temp);
    expect(readFileSync(written.htmlPath, 'utf8')).toContain('b title');
    expect(written.png).toEqual({ written: true });
    const png = readFileSync(written.pngPath);
    // PNG signature, then a non-empty image (IHDR width and height).
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
    expect(png.readUInt32BE(16)).toBeGreaterThan(100);
    expect(png.readUInt32BE(20)).toBeGreaterThan(50);
  });
});
