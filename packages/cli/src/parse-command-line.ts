import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { usageError } from './cli-error.js';
import type { Command, CommandValues } from './command.js';
import { commands } from './commands/index.js';
import { didYouMean } from './suggest.js';

/** Flags every command accepts. */
export const globalOptions = {
  user: { type: 'string' },
  home: { type: 'string' },
  config: { type: 'string' },
  'database-url': { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} satisfies ParseArgsOptionsConfig;

/** A `patchbay` command line, parsed and checked but not run. */
export interface ParsedCommandLine {
  /** The command named, or undefined for a bare `patchbay` (with or without --help / --version). */
  command: Command | undefined;
  /** Global and command flags by name. */
  values: CommandValues;
  /** Positional arguments after the command name. */
  positionals: string[];
}

/** Finds the command name: the first positional, skipping values of global flags. */
function commandName(argv: string[]): string | undefined {
  const { tokens } = parseArgs({
    args: argv,
    options: globalOptions,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const first = tokens.find((token) => token.kind === 'positional');
  return first?.kind === 'positional' ? first.value : undefined;
}

/**
 * Refuses unknown flags, string flags without a value and boolean flags given one, in our words:
 * Node's own messages quote the flag unevenly and suggest `--` even for a typo.
 */
function checkFlags(argv: string[], options: ParseArgsOptionsConfig, command: Command | undefined): void {
  const where = command ? `patchbay ${command.name}` : 'patchbay';
  const help = ` Run "${where} --help".`;
  const { tokens } = parseArgs({ args: argv, options, strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option') continue;
    const option = options[token.name];
    if (!option) {
      const known = Object.keys(options).map((name) => `--${name}`);
      throw usageError(
        `Unknown option ${token.rawName} for ${where}.${token.rawName.startsWith('--') ? didYouMean(token.rawName, known) : ''}${help}`,
      );
    }
    if (option.type === 'string' && token.value === undefined) {
      throw usageError(`${token.rawName} needs a value, as in ${token.rawName} <value>.${help}`);
    }
    if (option.type === 'boolean' && token.inlineValue) {
      throw usageError(`${token.rawName} takes no value.${help}`);
    }
  }
}

/**
 * Parses a `patchbay` command line exactly as `runCli` does, without running anything: the command
 * must exist, its flags must be known and well-formed, and the positional arguments must fit.
 * Throws a {@link CliError} with exit code 2 (usage) otherwise.
 */
export function parseCommandLine(argv: string[]): ParsedCommandLine {
  const name = commandName(argv);
  const command = name === undefined ? undefined : commands.find((candidate) => candidate.name === name);
  if (name !== undefined && !command) {
    throw usageError(
      `Unknown command "${name}".${didYouMean(
        name,
        commands.map((candidate) => candidate.name),
      )} Run "patchbay --help".`,
    );
  }
  const options: ParseArgsOptionsConfig = { ...globalOptions, ...(command?.options ?? {}) };
  checkFlags(argv, options, command);
  let parsed: { values: CommandValues; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true }) as typeof parsed;
  } catch (error) {
    // checkFlags catches what parseArgs refuses; this stays for anything a later Node adds.
    throw usageError(
      `${(error as Error).message}${command ? ` Run "patchbay ${command.name} --help".` : ''}`,
    );
  }
  const positionals = parsed.positionals.slice(1);
  if (command && !parsed.values.help && !parsed.values.version) {
    const { required, optional = [] } = command.positionals;
    if (positionals.length < required.length) {
      throw usageError(
        `patchbay ${command.name} needs ${required
          .slice(positionals.length)
          .map((item) => `<${item}>`)
          .join(' ')}. Usage: patchbay ${command.name} ${command.usage}`,
      );
    }
    if (positionals.length > required.length + optional.length) {
      throw usageError(
        `Unexpected argument "${positionals[required.length + optional.length]}". Usage: patchbay ${command.name} ${command.usage}`,
      );
    }
  }
  return { command, values: parsed.values, positionals };
}
