// Renders the matrix page to a PNG in a real browser: Debian's chromium driven by playwright-core
// (no browser download: `executablePath`). Without a browser it says why and writes no PNG.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the browser is: PATCHBAY_CHROMIUM, else Debian's package path. */
export const chromiumPath = (): string => process.env.PATCHBAY_CHROMIUM || '/usr/bin/chromium';

// As the machine's own probe starts it: no sandbox (root), no GPU, and none of the background
// connections a closed network refuses.
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Writes `html` to `pngPath` as a full-page screenshot. Resolves `{ written: true }`, or
 * `{ written: false, reason }` when there is no browser to render with.
 */
export async function renderPng(
  html: string,
  pngPath: string,
): Promise<{ written: boolean; reason?: string }> {
  const executablePath = chromiumPath();
  if (!existsSync(executablePath)) {
    return {
      written: false,
      reason: `no browser at ${executablePath} (set PATCHBAY_CHROMIUM, or install Debian's chromium)`,
    };
  }
  // An optional peer: without it only the HTML page is written.
  const playwright = await import('playwright-core').catch(() => undefined);
  if (!playwright) return { written: false, reason: 'playwright-core is not installed (an optional peer)' };
  const { chromium } = playwright;
  const profile = mkdtempSync(join(tmpdir(), 'patchbay-matrix-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    args: chromiumArgs,
    headless: true,
    viewport: { width: 1200, height: 800 },
  });
  try {
    const page = await context.newPage();
    await page.setContent(html, { waitUntil: 'load' });
    await page.screenshot({ path: pngPath, fullPage: true });
    return { written: true };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
