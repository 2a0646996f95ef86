import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { type FakeService, startFakeService } from './fake-service.js';

/** Root of the CLI package. */
export const packageDirectory = join(import.meta.dirname, '..');
/** The built binary the tests run, exactly as users do. */
export const cliBinary = join(packageDirectory, 'dist', 'cli.js');
/** The test stand-in connector module. */
export const demoConnectorModule = join(packageDirectory, 'test-fixtures', 'demo-connector.mjs');

/**
 * Time limit of one end-to-end test, of its hooks, and of every wait inside one (a CLI run, a child
 * server starting, a `vi.waitFor`), so no inner deadline fires before the test's own. A test here runs
 * up to ~12 CLI processes or MCP servers one after another: each is a fresh node process that loads the
 * bundle and opens the store, ~0.3 s on a quiet machine and 2–4 s with both cores busy. The slowest test
 * took 7 s quiet, 20 s beside two CPU hogs and a second suite, and 41 s at a load average of 15 on two
 * cores. 180 s is over 4× that, so only a hang fails a test. Each e2e file applies it with
 * `vi.setConfig`; quick unit tests keep the shared default.
 */
export const e2eTimeoutMs = 180_000;

/** Builds dist/ with tsup when it is missing (the package's test script builds it first anyway). */
export function ensureBuilt(): void {
  if (existsSync(cliBinary)) return;
  execFileSync(join(packageDirectory, '..', '..', 'node_modules', '.bin', 'tsup'), [], {
    cwd: packageDirectory,
    stdio: 'ignore',
  });
}

/** Output of one CLI run. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Every run's output, so a test can search all of it for a leaked secret. */
export const allOutput: string[] = [];

/** Runs `node dist/cli.js ...args` in a child process with a clean environment. */
export function runPatchbay(args: string[], env: Record<string, string> = {}, cwd?: string): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cliBinary, ...args],
      {
        cwd: cwd ?? tmpdir(),
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env },
        timeout: e2eTimeoutMs,
      },
      (error, stdout, stderr) => {
        allOutput.push(stdout, stderr);
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A fresh Patchbay home with a config that loads the demo connector against `baseUrl`. */
export function createHome(baseUrl: string): string {
  const home = mkdtempSync(join(tmpdir(), 'patchbay-cli-'));
  writeFileSync(
    join(home, 'patchbay.config.json'),
    JSON.stringify({ connectors: [{ module: demoConnectorModule, settings: { baseUrl } }] }, null, 2),
  );
  return home;
}

/** Every file of the store (database, WAL, shared memory) with its bytes. */
export function storeFiles(home: string): { name: string; bytes: Buffer }[] {
  return readdirSync(home)
    .filter((name) => name.startsWith('patchbay.db'))
    .map((name) => ({ name, bytes: readFileSync(join(home, name)) }));
}

/**
 * Per-file set-up of the end-to-end tests: the built CLI, one loopback fake service, and temporary
 * homes that are removed afterwards. `secretByte` gives each file its own store key.
 */
export function useDemoService(secretByte: number) {
  let started: FakeService | undefined;
  const homes: string[] = [];
  const secretKey = Buffer.alloc(32, secretByte).toString('base64');
  beforeAll(async () => {
    ensureBuilt();
    started = await startFakeService();
  }, e2eTimeoutMs);
  afterAll(async () => {
    await started?.close();
    for (const home of homes) rmSync(home, { recursive: true, force: true });
  }, e2eTimeoutMs);
  const demo = {
    secretKey,
    /** The fake service, once started. */
    get service(): FakeService {
      if (!started) throw new Error('the fake service is not started yet');
      return started;
    },
    /** A new temporary home configured with the demo connector against the fake service. */
    newHome(): string {
      const home = createHome(demo.service.url);
      homes.push(home);
      return home;
    },
    /** Runs the CLI against a home with the demo token and the store key in its environment. */
    patchbay(home: string, args: string[]): Promise<CliRun> {
      return runPatchbay(['--home', home, ...args], {
        DEMO_TOKEN: demo.service.goodToken,
        PATCHBAY_SECRET_KEY: secretKey,
      });
    },
    /** A new home where `patchbay connect demo` succeeded. */
    async connectedHome(): Promise<string> {
      const home = demo.newHome();
      expect((await demo.patchbay(home, ['connect', 'demo', '--token-env', 'DEMO_TOKEN'])).code).toBe(0);
      return home;
    },
  };
  return demo;
}
