import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import { cliBinary, e2eTimeoutMs, packageDirectory } from './run-patchbay.js';

/** Where the browser tests save their screenshots (gitignored). */
export const screenshotDirectory = join(packageDirectory, 'test-output', 'console');

/** The Chromium the tests drive: Debian's package, never a downloaded browser build. */
export const chromiumPath = process.env.PATCHBAY_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Launches headless Chromium with a fresh profile. Tabs of one context share its cookies, as tabs of
 * one browser window do.
 */
export async function launchBrowser(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'patchbay-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    headless: true,
    timeout: e2eTimeoutMs,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  context.setDefaultTimeout(e2eTimeoutMs);
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A `patchbay console` child process and the URLs it printed. */
export interface ConsoleProcess {
  /** `http://127.0.0.1:<port>/`. */
  baseUrl: string;
  /** The one-time sign-in URL. */
  loginUrl: string;
  /** Everything it wrote so far, to search for leaked secrets. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `patchbay --home <home> console` and waits until it printed its sign-in URL. */
export function startConsoleProcess(home: string, env: Record<string, string>): Promise<ConsoleProcess> {
  const child: ChildProcess = spawn(process.execPath, [cliBinary, '--home', home, 'console'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), USER: 'operator', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`patchbay console printed no URL:\n${output}`)),
      e2eTimeoutMs,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /(http:\/\/127\.0\.0\.1:\d+\/)\?token=[\w-]+/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        baseUrl: match[1]!,
        loginUrl: match[0],
        output: () => output,
        async stop() {
          child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`patchbay console exited with ${code}:\n${output}`));
    });
  });
}

/** Makes the screenshot directory. */
export function ensureScreenshotDirectory(): string {
  mkdirSync(screenshotDirectory, { recursive: true });
  return screenshotDirectory;
}
