// The eval config: loading a team's config file, checking its shape, and making its paths absolute.
// Its shape is in config-types.ts.
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Connector } from '@patchbay/connector';
import type { EvalConfig, ResolvedEvalConfig } from './config-types.js';
import { credentialsFor, minSecretLength } from './credentials.js';
import { EvalConfigError } from './eval-errors.js';

export type {
  ConnectorContext,
  EvalCallers,
  EvalConfig,
  EvalData,
  EvalMcp,
  EvalMemory,
  EvalMemorySession,
  EvalService,
  EvalServiceSession,
  EvalStore,
  EvalStoreHandle,
  ResolvedEvalConfig,
  ServiceRequest,
  SystemPromptInput,
  ToolRun,
  ToolRunLog,
  TurnRunner,
} from './config-types.js';
export { EvalConfigError } from './eval-errors.js';

/** Types a config in a `.mjs`/`.ts` file: `export default defineEvalConfig({ … })`. Returns it unchanged. */
export function defineEvalConfig(config: EvalConfig): EvalConfig {
  return config;
}

/** The default identity when a config gives none. */
export const defaultIdentity = 'You are the team assistant. Be brief and accurate.';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function connectorProblems(value: unknown, path: string): string[] {
  if (!isRecord(value)) return [`${path}: not a connector (build it with defineConnector)`];
  const problems: string[] = [];
  if (value.specificationVersion !== 'v1')
    problems.push(`${path}: specificationVersion is not "v1" (build it with defineConnector)`);
  if (typeof value.id !== 'string') problems.push(`${path}: has no id`);
  if (!Array.isArray(value.tools)) problems.push(`${path}: has no tools list`);
  return problems;
}

/**
 * What a config's own `credentials` function hands each connector it can list (its connectors, those
 * of a factory for a scenario without fixtures, its packages), checked as a run checks it: text, and
 * every secret at least {@link minSecretLength} characters, since the leak checks search for it.
 */
function credentialProblems(config: Record<string, unknown>): string[] {
  let listed: unknown[] = [];
  try {
    const { connectors } = config;
    listed = [
      ...(Array.isArray(connectors)
        ? connectors
        : typeof connectors === 'function'
          ? connectors({ fixtures: {}, scenarioId: '' })
          : []),
      ...(isRecord(config.packages) ? Object.values(config.packages) : []),
    ];
  } catch {
    // A connectors factory that fails here fails again, with its message, when a scenario runs.
    return [];
  }
  const usable = listed.filter(
    (connector): connector is Connector =>
      isRecord(connector) && typeof connector.id === 'string' && isRecord(connector.auth),
  );
  return usable.flatMap((connector) =>
    credentialsFor(
      connector,
      config.credentials as (connector: Connector) => Record<string, string>,
    ).problems.map((problem) => `credentials: ${problem}`),
  );
}

/** The keys a config may have. */
const configKeys = new Set([
  'connectors',
  'packages',
  'identity',
  'systemPrompt',
  'scenarios',
  'results',
  'model',
  'modelLabel',
  'credentials',
  'service',
  'mcp',
  'memory',
  'callers',
  'data',
  'runners',
  'store',
]);

/** The fields each extension must have. */
const extensionFields: Record<string, string[]> = {
  service: ['responses', 'run'],
  mcp: ['tools', 'register'],
  memory: ['tools', 'create'],
  store: ['databases', 'open'],
};

/** The problems of `connectors` (each one, and an id used twice) and of `packages`. */
function connectorsProblems(config: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const { connectors } = config;
  if (Array.isArray(connectors)) {
    connectors.forEach((connector, index) => {
      problems.push(...connectorProblems(connector, `connectors[${index}]`));
    });
    const ids = connectors.map((connector) => (isRecord(connector) ? connector.id : undefined));
    ids.forEach((id, index) => {
      if (typeof id === 'string' && ids.indexOf(id) !== index)
        problems.push(`connectors[${index}]: connector id "${id}" is used twice`);
    });
  } else if (typeof connectors !== 'function')
    problems.push('connectors: required: a list of connectors or a function returning one');
  if (config.packages !== undefined) {
    if (!isRecord(config.packages)) problems.push('packages: must be a map of id → connector');
    else
      for (const [id, connector] of Object.entries(config.packages))
        problems.push(...connectorProblems(connector, `packages.${id}`));
  }
  return problems;
}

/** The problems of the texts and functions: identity or system prompt, model, credentials. */
function valueProblems(config: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const key of ['identity', 'scenarios', 'results', 'modelLabel'])
    if (config[key] !== undefined && typeof config[key] !== 'string') problems.push(`${key}: must be text`);
  if (config.identity !== undefined && config.systemPrompt !== undefined)
    problems.push('systemPrompt: give either identity or systemPrompt, not both');
  if (
    config.systemPrompt !== undefined &&
    typeof config.systemPrompt !== 'string' &&
    typeof config.systemPrompt !== 'function'
  )
    problems.push('systemPrompt: must be text or a function');
  if (config.model !== undefined && typeof config.model !== 'string' && typeof config.model !== 'function')
    problems.push('model: must be a model spec (text) or a function returning a model');
  if (config.credentials !== undefined && typeof config.credentials !== 'function')
    problems.push('credentials: must be a function of the connector');
  else if (typeof config.credentials === 'function') problems.push(...credentialProblems(config));
  return problems;
}

/** The problems of the extensions: runners, callers, and each extension's required fields. */
function extensionProblems(config: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (config.runners !== undefined) {
    if (!isRecord(config.runners)) problems.push('runners: must be a map of name → turn runner function');
    else
      for (const [name, runner] of Object.entries(config.runners)) {
        const run = isRecord(runner) ? runner.run : runner;
        if (typeof run !== 'function')
          problems.push(`runners.${name}: must be a function (runTurn's contract) or { run, inAll? }`);
        if (isRecord(runner) && runner.inAll !== undefined && typeof runner.inAll !== 'boolean')
          problems.push(`runners.${name}.inAll: must be true or false`);
        if (!/^[a-z][a-z0-9-]*$/.test(name))
          problems.push(`runners.${name}: a name of lower-case letters, digits and -`);
      }
  }
  if (config.callers !== undefined) {
    if (!isRecord(config.callers)) problems.push('callers: must be an object with agents and/or gateway');
    else
      for (const key of ['agents', 'gateway', 'serveGateway'])
        if (config.callers[key] !== undefined && typeof config.callers[key] !== 'function')
          problems.push(`callers.${key}: must be a function`);
  }
  for (const [key, fields] of Object.entries(extensionFields)) {
    const value = config[key];
    if (value === undefined) continue;
    if (!isRecord(value)) problems.push(`${key}: must be an object with ${fields.join(' and ')}`);
    else for (const field of fields) if (!(field in value)) problems.push(`${key}.${field}: required`);
  }
  return problems;
}

/** Every problem of a config's shape, as `path: message`; empty when it is usable. */
export function evalConfigProblems(config: unknown): string[] {
  if (!isRecord(config)) return ['the config must be an object (export default defineEvalConfig({ … }))'];
  return [
    ...Object.keys(config)
      .filter((key) => !configKeys.has(key))
      .map((key) => `${key}: unknown key`),
    ...connectorsProblems(config),
    ...valueProblems(config),
    ...extensionProblems(config),
  ];
}

/**
 * Checks a config and makes its paths absolute (relative to `file`'s directory, or `base`). Throws an
 * {@link EvalConfigError} naming every problem.
 */
export function resolveEvalConfig(
  config: unknown,
  { file, base = file ? dirname(file) : process.cwd() }: { file?: string; base?: string } = {},
): ResolvedEvalConfig {
  const problems = evalConfigProblems(config);
  if (problems.length > 0) throw new EvalConfigError(file ?? '(config object)', problems);
  const valid = config as EvalConfig;
  const at = (path: string) => (isAbsolute(path) ? path : resolve(base, path));
  return {
    ...valid,
    file,
    scenarios: at(valid.scenarios ?? 'scenarios'),
    results: at(valid.results ?? 'eval-results'),
  };
}

/** The config file names `patchbay-eval` looks for in the working directory, in order. */
export const configFileNames = [
  'patchbay-eval.config.mjs',
  'patchbay-eval.config.js',
  'patchbay-eval.config.ts',
];

/**
 * Why a `.ts` config failed to import, when Node's type stripping is the cause. Node loads a `.ts`
 * file itself by erasing its types (on by default in every Node the command supports: 22.18 and
 * later, 23.6 and later); it transforms nothing, so syntax with a meaning at run time fails, and so
 * does a type imported without `type` (it is not erased, and the module has no such value).
 */
function typeScriptHint(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  const features = process.features as { typescript?: string | false };
  if (code === 'ERR_UNKNOWN_FILE_EXTENSION' || features.typescript === false)
    return ` (a .ts config needs Node's type stripping, which is off in this Node ${process.versions.node}: drop --no-experimental-strip-types from the command line or NODE_OPTIONS, use a Node of 22.18 or later, or write the config as .mjs)`;
  if (code === 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX')
    return ' (Node erases types but transforms no TypeScript syntax: write the config without enum, namespace and parameter properties, or run node with --experimental-transform-types)';
  if (error instanceof SyntaxError && /does not provide an export named/.test(error.message))
    return ' (Node erases only what is marked as a type: import types with `import type { … }` or `{ type EvalConfig }`)';
  return '';
}

/**
 * Imports a config file (its default export, or `config`) and resolves it. A `.ts` file is loaded by
 * Node itself, which erases its types (see {@link typeScriptHint} for what that asks of the file). Throws an
 * {@link EvalConfigError} when the file is missing, fails to import or is invalid.
 */
export async function loadEvalConfig(file: string): Promise<ResolvedEvalConfig> {
  const path = resolve(file);
  if (!existsSync(path)) throw new EvalConfigError(path, ['no such file']);
  let module: Record<string, unknown>;
  try {
    module = await import(pathToFileURL(path).href);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new EvalConfigError(path, [
      `failed to import: ${message}${path.endsWith('.ts') ? typeScriptHint(error) : ''}`,
    ]);
  }
  const config = module.default ?? module.config;
  if (config === undefined)
    throw new EvalConfigError(path, ['exports no config (export default defineEvalConfig({ … }))']);
  return resolveEvalConfig(config, { file: path });
}
