import { resolve } from 'node:path';
import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { PatchbayError } from '@patchbay/envelope';
import { defaultHome } from '@patchbay/store';
import { CliError, usageError } from './cli-error.js';
import type { Command, CommandValues } from './command.js';
import { commands } from './commands/index.js';
import { type ExitCode, exitCodes } from './exit-codes.js';
import { CliRuntime, type CliStreams } from './runtime.js';
import { didYouMean } from './suggest.js';
import { formatTable } from './table.js';
import { cliVersion } from './version.js';

const globalOptions = {
  user: { type: 'string' },
  home: { type: 'string' },
  config: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} satisfies ParseArgsOptionsConfig;

const globalHelp = [
  '  --user <subject>   whose connections to use (default $PATCHBAY_USER or "default")',
  '  --home <dir>       Patchbay home (default $PATCHBAY_HOME or ~/.patchbay)',
  '  --config <file>    patchbay.config.json to use (default <home>/patchbay.config.json)',
  '  --json             machine-readable output',
  '  -h, --help         help',
];

function mainHelp(): string {
  return [
    'patchbay — connect accounts, see connector status, call tools, approve proposals, serve over MCP',
    '',
    'Usage: patchbay <command> [options]',
    '',
    'Commands:',
    formatTable(
      ['', ''],
      commands.map((command) => [`  ${command.name}`, command.summary]),
    )
      .split('\n')
      .slice(1)
      .join('\n'),
    '',
    'Global options:',
    ...globalHelp,
    '',
    'Exit codes: 0 ok, 1 error, 2 usage, 3 verification refused, 4 tool returned an error envelope.',
    'Run "patchbay <command> --help" for a command’s options and examples.',
  ].join('\n');
}

function commandHelp(command: Command): string {
  return [
    `Usage: patchbay ${command.name}${command.usage ? ` ${command.usage}` : ''}`,
    '',
    command.summary,
    '',
    'Examples:',
    ...command.examples.map((example) => `  ${example}`),
    '',
    'Global options:',
    ...globalHelp,
  ].join('\n');
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
 * Runs `patchbay` with the given arguments and returns the exit code. Errors are printed as one
 * readable line on stderr (never a stack trace, never a secret).
 */
export async function runCli(
  argv: string[],
  streams: CliStreams = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin },
  environment: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Promise<ExitCode> {
  let runtime: CliRuntime | undefined;
  try {
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
    let parsed: ReturnType<
      typeof parseArgs<{ options: ParseArgsOptionsConfig; allowPositionals: true; strict: true }>
    >;
    try {
      parsed = parseArgs({
        args: argv,
        options: { ...globalOptions, ...(command?.options ?? {}) },
        allowPositionals: true,
        strict: true,
      });
    } catch (error) {
      throw usageError(
        `${(error as Error).message}${command ? `. Run "patchbay ${command.name} --help".` : ''}`,
      );
    }
    const values = parsed.values as CommandValues;
    if (values.version) {
      streams.stdout.write(`${cliVersion()}\n`);
      return exitCodes.ok;
    }
    if (!command || values.help) {
      streams.stdout.write(`${command ? commandHelp(command) : mainHelp()}\n`);
      return command || values.help ? exitCodes.ok : exitCodes.usage;
    }
    const positionals = parsed.positionals.slice(1);
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
    const user = (values.user as string | undefined) ?? environment.PATCHBAY_USER ?? 'default';
    if (user.trim() === '') throw usageError('--user must not be empty.');
    runtime = new CliRuntime(
      {
        subject: user,
        home: values.home ? resolve(cwd, values.home as string) : defaultHome(environment),
        json: values.json === true,
        configPath: values.config ? resolve(cwd, values.config as string) : undefined,
        cwd,
        env: environment,
      },
      streams,
    );
    return await command.run(runtime, values, positionals);
  } catch (error) {
    const exitCode = error instanceof CliError ? error.exitCode : exitCodes.error;
    const message = PatchbayError.isInstance(error)
      ? error.message
      : `Unexpected error: ${error instanceof Error ? error.message : String(error)}`;
    if (runtime) runtime.note(`patchbay: ${message}`);
    else streams.stderr.write(`patchbay: ${message}\n`);
    return exitCode;
  } finally {
    runtime?.close();
  }
}
