// Writes results/matrix.html and results/matrix.png: every scenario × every agent whose results are
// in results/ (the last `pnpm eval` and, when run, `pnpm eval:baselines`), pass or fail with the first
// failing check per cell. `pnpm eval` and `pnpm eval:baselines` call it at the end; it also runs alone.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildMatrix, renderMatrixHtml } from '../lib/matrix.mjs';
import { renderPng } from '../lib/matrix-png.mjs';

/**
 * Builds the matrix from the results files found in `resultsDirectory` and writes the page and the PNG.
 * @param {string} resultsDirectory
 */
export async function writeMatrix(resultsDirectory) {
  const files = ['results.json', 'baselines-results.json']
    .map((name) => join(resultsDirectory, name))
    .filter((file) => existsSync(file));
  const rowSets = files.map((file) => JSON.parse(readFileSync(file, 'utf8')).results?.results ?? []);
  const matrix = buildMatrix(rowSets);
  const htmlPath = join(resultsDirectory, 'matrix.html');
  const pngPath = join(resultsDirectory, 'matrix.png');
  const html = renderMatrixHtml(matrix, { generatedAt: new Date().toISOString() });
  writeFileSync(htmlPath, html);
  const png = await renderPng(html, pngPath).catch((error) => ({ written: false, reason: error.message }));
  return { matrix, htmlPath, pngPath, png };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const here = dirname(fileURLToPath(import.meta.url));
  const directory = process.env.PATCHBAY_EVAL_RESULTS || join(here, '..', 'results');
  const { matrix, htmlPath, pngPath, png } = await writeMatrix(directory);
  console.log(
    `[eval] matrix: ${matrix.scenarios.length} scenarios × ${matrix.agents.length} agents → ${htmlPath}${png.written ? ` and ${pngPath}` : ` (no PNG: ${png.reason})`}`,
  );
}
