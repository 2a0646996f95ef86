import type { ParseArgsOptionsConfig } from 'node:util';
import type { ExitCode } from './exit-codes.js';
import type { CliRuntime } from './runtime.js';

/** Parsed flag values of one command. */
export type CommandValues = Record<string, string | boolean | string[] | undefined>;

/** One `patchbay` subcommand. */
export interface Command {
  name: string;
  /** Argument synopsis after the name, e.g. `<id> [--token-env VAR]`. */
  usage: string;
  /** One line for `patchbay --help`. */
  summary: string;
  /** Example invocations for `patchbay <command> --help`. */
  examples: string[];
  /** Flags this command accepts besides the global ones. */
  options: ParseArgsOptionsConfig;
  /** Positional arguments: names, required first. */
  positionals: { required: string[]; optional?: string[] };
  run(runtime: CliRuntime, values: CommandValues, positionals: string[]): Promise<ExitCode>;
}
