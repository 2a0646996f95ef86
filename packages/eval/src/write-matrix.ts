// Writes matrix.html and matrix.png into a results directory: every scenario × every agent whose
// results are there (the last run and, when run, the baselines' run), pass or fail with the first
// failing check per cell. `patchbay-eval run` calls it at the end; `patchbay-eval matrix` alone.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildMatrix, type Matrix, renderMatrixHtml } from './matrix.js';
import { renderPng } from './matrix-png.js';

/** What {@link writeMatrix} wrote. */
export interface WrittenMatrix {
  matrix: Matrix;
  htmlPath: string;
  pngPath: string;
  png: { written: boolean; reason?: string };
}

/**
 * Builds the matrix from the results files found in `resultsDirectory` and writes the page and the PNG.
 */
export async function writeMatrix(resultsDirectory: string): Promise<WrittenMatrix> {
  const files = ['results.json', 'baselines-results.json']
    .map((name) => join(resultsDirectory, name))
    .filter((file) => existsSync(file));
  const rowSets = files.map(
    (file): unknown[] =>
      (JSON.parse(readFileSync(file, 'utf8')) as { results?: { results?: unknown[] } }).results?.results ??
      [],
  );
  const matrix = buildMatrix(rowSets);
  const htmlPath = join(resultsDirectory, 'matrix.html');
  const pngPath = join(resultsDirectory, 'matrix.png');
  const html = renderMatrixHtml(matrix, { generatedAt: new Date().toISOString() });
  writeFileSync(htmlPath, html);
  const png = await renderPng(html, pngPath).catch((error: Error) => ({
    written: false,
    reason: error.message,
  }));
  return { matrix, htmlPath, pngPath, png };
}
