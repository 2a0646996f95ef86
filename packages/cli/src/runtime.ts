import { resolve } from 'node:path';
import type { Connector } from '@patchbay/connector';
import { redactString } from '@patchbay/envelope';
import { openStore, type PatchbayStore } from '@patchbay/store';
import { CliError } from './cli-error.js';
import { loadConfig, type PatchbayConfig } from './config.js';
import { cliPackageDirectory, discoverConnectors } from './discover-connectors.js';
import { didYouMean } from './suggest.js';

/** Where the CLI reads input and writes output; swapped in tests of the library entry. */
export interface CliStreams {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  stdin: NodeJS.ReadStream | (NodeJS.ReadableStream & { isTTY?: boolean });
}

/** Settings every command sees, resolved from global flags and the environment. */
export interface RuntimeSettings {
  subject: string;
  home: string;
  json: boolean;
  configPath: string | undefined;
  /** `--database-url`: a `postgres://` URL or a SQLite file; undefined for `PATCHBAY_DATABASE_URL` or the home's file. */
  databaseUrl?: string | undefined;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * What a command works with: settings, output that redacts every secret the command registered,
 * and the store, config and connectors — each opened on first use, so `--help` or a usage error
 * never touches the database.
 */
export class CliRuntime {
  private openedStore: PatchbayStore | undefined;
  private config: Promise<PatchbayConfig> | undefined;
  private discovered: Promise<Connector[]> | undefined;
  private readonly secrets = new Set<string>();

  constructor(
    readonly settings: RuntimeSettings,
    readonly streams: CliStreams,
  ) {}

  /** Registers a value that must never be printed. */
  addSecret(value: string): void {
    if (value) this.secrets.add(value);
  }

  /** Writes a line (or block) to stdout, redacted. */
  print(text: string): void {
    this.streams.stdout.write(`${redactString(text, this.secrets)}\n`);
  }

  /** Writes a JSON document to stdout, redacted. */
  printJson(value: unknown): void {
    this.print(JSON.stringify(value, null, 2));
  }

  /** Writes a warning or progress line to stderr, redacted. */
  note(text: string): void {
    this.streams.stderr.write(`${redactString(text, this.secrets)}\n`);
  }

  /** The store (`--database-url`, `PATCHBAY_DATABASE_URL` or the home's SQLite file), opened once. */
  store(): PatchbayStore {
    const timeout = Number(this.settings.env.PATCHBAY_BUSY_TIMEOUT_MS);
    const url = this.settings.databaseUrl ?? (this.settings.env.PATCHBAY_DATABASE_URL || undefined);
    // A database password is a secret like any other: never printed, even in an error.
    if (url && /^postgres(ql)?:\/\//i.test(url)) this.addSecret(decodeURIComponent(new URL(url).password));
    this.openedStore ??= openStore({
      ...(url ? { url: /^postgres(ql)?:\/\//i.test(url) ? url : resolve(this.settings.cwd, url) } : {}),
      home: this.settings.home,
      env: this.settings.env,
      ...(Number.isFinite(timeout) && timeout > 0 ? { busyTimeoutMs: timeout } : {}),
    });
    return this.openedStore;
  }

  /** The parsed `patchbay.config.json`. */
  loadConfig(): Promise<PatchbayConfig> {
    this.config ??= loadConfig(this.settings.home, this.settings.configPath, this.settings.cwd);
    return this.config;
  }

  /** Every installed and configured connector, sorted by id; discovery warnings go to stderr. */
  connectors(): Promise<Connector[]> {
    this.discovered ??= (async () => {
      const config = await this.loadConfig();
      const discovery = await discoverConnectors({
        config,
        searchFrom: [this.settings.cwd, cliPackageDirectory()],
      });
      for (const warning of discovery.warnings) this.note(`warning: ${warning}`);
      return discovery.connectors.map((item) => item.connector);
    })();
    return this.discovered;
  }

  /** The connector with this id, or a readable error suggesting close ids. */
  async connector(id: string): Promise<Connector> {
    const connectors = await this.connectors();
    const found = connectors.find((connector) => connector.id === id);
    if (found) return found;
    const known = connectors.map((connector) => connector.id);
    const installed = known.length ? ` Installed: ${known.join(', ')}.` : ' No connectors are installed.';
    throw new CliError('unknown_connector', `Unknown connector "${id}".${didYouMean(id, known)}${installed}`);
  }

  /** Closes what was opened (a Postgres pool ends asynchronously). */
  async close(): Promise<void> {
    await this.openedStore?.close();
  }
}
