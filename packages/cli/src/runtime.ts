import { resolve } from 'node:path';
import type { Connector } from '@patchbay/connector';
import { redactString } from '@patchbay/envelope';
import { databaseLocation, openStore, type PatchbayStore } from '@patchbay/store';
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
  private readonly closeables = new Set<{ shutdown(): Promise<void> }>();

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
    // Checked before a relative path is made absolute: `postgress://…` must be refused, not become
    // a new SQLite file named after it (the store's own rule, so both agree on what is accepted).
    const location = url
      ? databaseLocation(url, this.settings.databaseUrl ? '--database-url' : 'PATCHBAY_DATABASE_URL')
      : undefined;
    // A database password is a secret like any other: never printed, even in an error.
    if (location?.kind === 'postgres') this.addSecret(decodeURIComponent(new URL(location.url).password));
    this.openedStore ??= openStore({
      ...(location
        ? { url: location.kind === 'postgres' ? location.url : resolve(this.settings.cwd, location.path) }
        : {}),
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

  /**
   * Shuts `agent` down when the command ends, however it ends: an MCP server's child process that
   * is still running would keep `patchbay` from exiting after it printed its answer.
   */
  shutDownOnClose(agent: { shutdown(): Promise<void> }): void {
    this.closeables.add(agent);
  }

  /** Shuts down the agents handed to {@link shutDownOnClose}, then closes the store (a Postgres pool ends asynchronously). */
  async close(): Promise<void> {
    const agents = [...this.closeables];
    this.closeables.clear();
    await Promise.all(agents.map((agent) => agent.shutdown().catch(() => undefined)));
    await this.openedStore?.close();
  }
}
