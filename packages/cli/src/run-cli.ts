import { resolve } from 'node:path';
import { PatchbayError } from '@patchbay/envelope';
import { defaultHome } from '@patchbay/store';
import { CliError, usageError } from './cli-error.js';
import type { Command } from './command.js';
import { commands } from './commands/index.js';
import { type ExitCode, exitCodes } from './exit-codes.js';
import { parseCommandLine } from './parse-command-line.js';
import { CliRuntime, type CliStreams } from './runtime.js';
import { formatTable } from './table.js';
import { cliVersion } from './version.js';

const globalHelp = [
  '  --user <subject>   whose connections to use (default $PATCHBAY_USER or "default")',
  '  --home <dir>       Patchbay home (default $PATCHBAY_HOME or ~/.patchbay)',
  "  --config <file>    patchbay.config.json to use (default: the project's, else <home>/patchbay.config.json)",
  '  --database-url <u> postgres://… or a SQLite file (default $PATCHBAY_DATABASE_URL or <home>/patchbay.db)',
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
    'Exit codes: 0 ok, 1 error (an unreachable service too), 2 usage, 3 the service refused the credentials,',
    '4 the tool returned an error envelope.',
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
    const { command, values, positionals } = parseCommandLine(argv);
    if (values.version) {
      streams.stdout.write(`${cliVersion()}\n`);
      return exitCodes.ok;
    }
    if (!command || values.help) {
      streams.stdout.write(`${command ? commandHelp(command) : mainHelp()}\n`);
      return command || values.help ? exitCodes.ok : exitCodes.usage;
    }
    const user = (values.user as string | undefined) ?? environment.PATCHBAY_USER ?? 'default';
    if (user.trim() === '') throw usageError('--user must not be empty.');
    runtime = new CliRuntime(
      {
        subject: user,
        home: values.home ? resolve(cwd, values.home as string) : defaultHome(environment),
        json: values.json === true,
        configPath: values.config ? resolve(cwd, values.config as string) : undefined,
        databaseUrl: values['database-url'] as string | undefined,
        cwd,
        env: environment,
      },
      streams,
    );
    return await command.run(runtime, values, positionals);
  } catch (error) {
    const exitCode = CliError.isInstance(error) ? error.exitCode : exitCodes.error;
    const message = PatchbayError.isInstance(error)
      ? error.message
      : `Unexpected error: ${error instanceof Error ? error.message : String(error)}`;
    if (runtime) runtime.note(`patchbay: ${message}`);
    else streams.stderr.write(`patchbay: ${message}\n`);
    return exitCode;
  } finally {
    await runtime?.close();
  }
}
