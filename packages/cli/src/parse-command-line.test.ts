import { describe, expect, it } from 'vitest';
import { CliError } from './cli-error.js';
import { parseCommandLine } from './parse-command-line.js';

/** The usage message a command line is refused with. */
function refusal(argv: string[]): string {
  try {
    parseCommandLine(argv);
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(2);
    return (error as CliError).message;
  }
  throw new Error(`accepted: ${argv.join(' ')}`);
}

describe('parseCommandLine', () => {
  it('parses a command with its flags and positionals without running it', () => {
    const parsed = parseCommandLine(['connect', 'github', '--token-env', 'GITHUB_TOKEN', '--user', 'alice']);
    expect(parsed.command?.name).toBe('connect');
    expect(parsed.positionals).toEqual(['github']);
    expect(parsed.values).toMatchObject({ 'token-env': 'GITHUB_TOKEN', user: 'alice' });
  });

  it('names an unknown flag plainly, with the command, a suggestion and where help is', () => {
    const message = refusal(['connect', 'github', '--token_env', 'GITHUB_TOKEN']);
    expect(message).toBe(
      'Unknown option --token_env for patchbay connect. Did you mean --token-env? Run "patchbay connect --help".',
    );
    // Balanced quotes and no advice about "--" for what is a typo (Node's own message has both).
    expect(refusal(['connectors', '--frobnicate'])).toBe(
      'Unknown option --frobnicate for patchbay connectors. Run "patchbay connectors --help".',
    );
    expect(refusal(['connectors', '-x'])).toBe(
      'Unknown option -x for patchbay connectors. Run "patchbay connectors --help".',
    );
  });

  it('says when a flag needs a value or takes none', () => {
    expect(refusal(['call', 'github_get_issue', '--args'])).toBe(
      '--args needs a value, as in --args <value>. Run "patchbay call --help".',
    );
    expect(refusal(['connectors', '--json=yes'])).toBe(
      '--json takes no value. Run "patchbay connectors --help".',
    );
  });

  it('refuses unknown commands and missing or extra positionals', () => {
    expect(refusal(['conectors'])).toBe(
      'Unknown command "conectors". Did you mean connectors? Run "patchbay --help".',
    );
    expect(refusal(['connect'])).toMatch(
      /^patchbay connect needs <id>\. Usage: patchbay connect <id\|server> /,
    );
    expect(refusal(['disconnect', 'github', 'slack'])).toMatch(/^Unexpected argument "slack"/);
  });

  it('lets --help through without the positionals', () => {
    expect(parseCommandLine(['connect', '--help']).values.help).toBe(true);
  });
});
