// Writes matrix.html and matrix.png into a results directory: every scenario × every agent whose
// results are there (the last run and, when run, the baselines' run), pass or fail with the first
// failing check per cell. `patchbay-eval run` calls it at the end; `patchbay-eval matrix` alone.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildMatrix, renderMatrixHtml } from './matrix.mjs';
import { renderPng } from './matrix-png.mjs';

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
