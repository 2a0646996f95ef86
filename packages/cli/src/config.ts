import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { CliError } from './cli-error.js';

/** One extra connector module listed in `patchbay.config.json`. */
const connectorEntrySchema = z.union([
  z.string().min(1),
  z.object({
    /** A path relative to the config file, or a package name. */
    module: z.string().min(1),
    /** Passed to the module's `connectorFactory` declaration (e.g. `baseUrl`). */
    settings: z.record(z.string(), z.unknown()).optional(),
  }),
]);

/** Zod schema of `patchbay.config.json`. */
export const patchbayConfigSchema = z.object({
  connectors: z.array(connectorEntrySchema).default([]),
  /** Settings per connector id, for connectors found as installed packages. */
  settings: z.record(z.string(), z.record(z.string(), z.unknown())).default({}),
});

/** A parsed `patchbay.config.json`, with the directory its relative paths start from. */
export interface PatchbayConfig {
  /** The file read, or undefined when there was none. */
  path: string | undefined;
  directory: string;
  connectors: { module: string; settings?: Record<string, unknown> | undefined }[];
  settings: Record<string, Record<string, unknown>>;
}

/** Name of the config file looked up in the project directory and the Patchbay home. */
export const configFileName = 'patchbay.config.json';

/**
 * The project's `patchbay.config.json`: the nearest one from `cwd` upward, stopping at the project
 * root (the first directory holding a `package.json`), so a config in some unrelated parent
 * directory is never picked up. Undefined when the project has none.
 */
export function findProjectConfig(cwd: string): string | undefined {
  let directory = resolve(cwd);
  for (;;) {
    const candidate = join(directory, configFileName);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(directory);
    if (existsSync(join(directory, 'package.json')) || parent === directory) return undefined;
    directory = parent;
  }
}

/**
 * Reads the config: `--config <file>`, else the project's `patchbay.config.json` (see
 * {@link findProjectConfig}), else `<home>/patchbay.config.json`. A missing default file is an
 * empty config; a missing explicit file or invalid JSON is an error naming the file.
 */
export async function loadConfig(
  home: string,
  explicitPath: string | undefined,
  cwd?: string,
): Promise<PatchbayConfig> {
  const path = explicitPath
    ? resolve(explicitPath)
    : ((cwd === undefined ? undefined : findProjectConfig(cwd)) ?? join(home, configFileName));
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && !explicitPath) {
      return { path: undefined, directory: home, connectors: [], settings: {} };
    }
    throw new CliError(
      'unreadable_config',
      `Cannot read the config file ${path}: ${(error as Error).message}`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      'invalid_config',
      `The config file ${path} is not valid JSON: ${(error as Error).message}`,
    );
  }
  const parsed = patchbayConfigSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CliError(
      'invalid_config',
      `The config file ${path} is invalid at ${issue.path.join('.') || '(root)'}: ${issue.message}`,
    );
  }
  return {
    path,
    directory: dirname(path),
    connectors: parsed.data.connectors.map((entry) =>
      typeof entry === 'string' ? { module: entry } : entry,
    ),
    settings: parsed.data.settings,
  };
}
