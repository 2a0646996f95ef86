import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodType } from 'zod';
import { isV1Connector } from '../../packages/cli/src/discover-connectors.ts';
import { runCli } from '../../packages/cli/src/index.ts';
import { parseCommandLine } from '../../packages/cli/src/parse-command-line.ts';
import { root } from './workspace.js';

// Every `patchbay …` example a person can read (each command's --help, the code blocks of every
// Markdown file) must name a real command, real flags, real connector ids and fields, and real tools
// with arguments their schema accepts; those that need no network or earlier state also run, against
// a temporary Patchbay home with every connector of the repository configured.

interface ToolLike {
  name: string;
  input: ZodType;
}
interface ConnectorLike {
  id: string;
  tools: ToolLike[];
  auth: { fields: { name: string; secret?: boolean }[] };
}
interface Example {
  where: string;
  argv: string[];
}

/** Splits one shell line into commands of words: quotes, `#` comments, `&&`, `||`, `;`, `|`. */
function shellCommands(line: string): string[][] {
  const commands: string[][] = [[]];
  let word: string | undefined;
  const end = () => {
    if (word !== undefined) commands.at(-1)?.push(word);
    word = undefined;
  };
  for (let index = 0; index < line.length; index += 1) {
    const character = line[index] as string;
    if (character === "'" || character === '"') {
      // Inside double quotes a backslash escapes the next character; inside single quotes nothing does.
      let close = index + 1;
      let text = '';
      while (close < line.length && line[close] !== character) {
        if (character === '"' && line[close] === '\\') close += 1;
        text += line[close] ?? '';
        close += 1;
      }
      if (close >= line.length) throw new Error(`unbalanced ${character} in: ${line}`);
      word = (word ?? '') + text;
      index = close;
    } else if (/\s/.test(character)) end();
    else if (character === '#' && word === undefined) break;
    else if ('&|;'.includes(character)) {
      end();
      if (line[index + 1] === character) index += 1;
      commands.push([]);
    } else word = (word ?? '') + character;
  }
  end();
  return commands.filter((command) => command.length > 0);
}

/** The argv of every `patchbay` invocation in these lines (a leading `$ ` prompt is dropped). */
function patchbayInvocations(lines: string[], where: string): Example[] {
  const examples: Example[] = [];
  for (const line of lines) {
    // Output shown under a `$ patchbay …` line is not shell; only lines that run patchbay are read.
    if (!/(^|[\s;&|])patchbay\s/.test(line)) continue;
    for (const words of shellCommands(line.replace(/^\s*\$\s+/, ''))) {
      const start = words.findIndex((item) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(item));
      if (words[start] === 'patchbay') examples.push({ where, argv: words.slice(start + 1) });
    }
  }
  return examples;
}

/** Markdown files of the repository, outside dependencies, build output and generated templates. */
function markdownFiles(directory = root): string[] {
  const skipped = new Set([
    'node_modules',
    '.git',
    'dist',
    '.turbo',
    '.generated',
    '.changeset',
    'templates',
  ]);
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : markdownFiles(path);
    return entry.name.endsWith('.md') && entry.name !== 'CHANGELOG.md' ? [path] : [];
  });
}

/** Shell code blocks of every Markdown file (templates are left out: their ids are placeholders). */
function markdownExamples(): Example[] {
  const files = markdownFiles();
  const examples: Example[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const block of text.matchAll(/^```(sh|bash|shell|console)\n([\s\S]*?)^```/gm)) {
      const lines = (block[2] as string).replace(/\\\n/g, ' ').split('\n');
      examples.push(...patchbayInvocations(lines, file.slice(root.length + 1)));
    }
  }
  return examples;
}

/** Runs `patchbay` in this process; returns its exit code and output. */
async function patchbay(argv: string[], env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const streams = {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: process.stdin,
  };
  const code = await runCli(argv, streams, env, workingDirectory);
  return { code, stdout, stderr };
}

const connectorModules = readdirSync(join(root, 'connectors')).map((name) =>
  join(root, 'connectors', name, 'src/index.ts'),
);
const connectors = new Map<string, ConnectorLike>();
const tools = new Map<string, ToolLike>();
const home = mkdtempSync(join(tmpdir(), 'patchbay-examples-'));
// Where the examples run: it holds the files they name (`--mcp-config ./mcp-servers.json`).
const workingDirectory = mkdtempSync(join(tmpdir(), 'patchbay-examples-cwd-'));
// The servers the examples name: `patchbay disable filesystem` (starting it ends at once,
// crashed_on_start) and `patchbay connect notes`, a remote OAuth server that is never reached (an
// `oauth` server without tokens is not contacted; nothing listens on port 9 anyway).
const mcpServerConfigs = {
  filesystem: { command: process.execPath, args: ['-e', 'process.exit(0)'] },
  notes: { url: 'http://127.0.0.1:9/mcp', auth: 'oauth' },
};
const mcpServerNames = new Set(Object.keys(mcpServerConfigs));
const mcpServers = JSON.stringify({ mcpServers: mcpServerConfigs });
writeFileSync(join(workingDirectory, 'mcp-servers.json'), mcpServers);
const env = { PATCHBAY_HOME: home, PATCHBAY_SECRET_KEY: Buffer.alloc(32, 3).toString('base64') };
const helpExamples: Example[] = [];

// Loading every connector, the CLI and the tokenizer from source: ~3 s quiet, ~15 s with both cores busy.
const loadTimeoutMs = 120_000;
beforeAll(async () => {
  for (const file of connectorModules) {
    for (const value of Object.values(await import(file))) {
      if (isV1Connector(value)) connectors.set(value.id, value as unknown as ConnectorLike);
    }
  }
  for (const connector of connectors.values()) for (const tool of connector.tools) tools.set(tool.name, tool);
  writeFileSync(join(home, 'mcp-servers.json'), mcpServers);
  writeFileSync(
    join(home, 'patchbay.config.json'),
    JSON.stringify({ connectors: connectorModules.map((module) => ({ module })) }),
  );
  const main = await patchbay(['--help'], env);
  const names = main.stdout
    .split('Commands:\n')[1]
    ?.split('\n\n')[0]
    ?.split('\n')
    .map((line) => line.trim().split(/\s+/)[0] as string);
  for (const name of names ?? []) {
    const help = await patchbay([name, '--help'], env);
    const lines = help.stdout.split('Examples:\n')[1]?.split('\n\n')[0]?.split('\n') ?? [];
    helpExamples.push(...patchbayInvocations(lines, `patchbay ${name} --help`));
  }
}, loadTimeoutMs);
afterAll(() => {
  for (const directory of [home, workingDirectory]) rmSync(directory, { recursive: true, force: true });
});

/** What is wrong with one example, beyond what parseCommandLine refuses ([] when nothing). */
function problems({ argv }: Example): string[] {
  const { command, values, positionals } = parseCommandLine(argv);
  if (!command || values.help) return [];
  const found: string[] = [];
  const onServer =
    ['connect', 'disconnect', 'disable', 'enable'].includes(command.name) &&
    mcpServerNames.has(positionals[0] as string);
  if (['connect', 'disconnect', 'disable', 'enable'].includes(command.name) && !onServer) {
    const connector = connectors.get(positionals[0] as string);
    if (!connector) return [`no connector "${positionals[0]}" (have ${[...connectors.keys()].join(', ')})`];
    const fields = connector.auth.fields;
    for (const flag of (values.field as string[] | undefined) ?? []) {
      const name = flag.split('=')[0] as string;
      if (!fields.some((field) => field.name === name)) found.push(`${connector.id} has no field "${name}"`);
    }
    if (values['token-env'] && !fields.some((field) => field.name === 'token')) {
      if (fields.filter((field) => field.secret).length !== 1)
        found.push(`${connector.id} takes no --token-env`);
    }
  }
  if (command.name === 'call') {
    const tool = tools.get(positionals[0] as string);
    if (!tool) return [`no tool "${positionals[0]}"`];
    const args = values.args === undefined ? {} : JSON.parse(values.args as string);
    const parsed = tool.input.safeParse(args);
    if (!parsed.success) found.push(`${tool.name} refuses ${JSON.stringify(args)}: ${parsed.error.message}`);
  }
  return found;
}

// Commands an example can run as printed: no network, no proposal or connection made earlier.
const runnable = new Set([
  'connectors',
  'context',
  'proposals',
  'servers',
  'disable',
  'enable',
  'disconnect',
]);

describe('every patchbay example in --help and the READMEs', () => {
  const fromMarkdown = markdownExamples();

  it('finds the examples', () => {
    expect(helpExamples.length).toBeGreaterThan(15);
    expect(fromMarkdown.length).toBeGreaterThan(25);
    expect(connectors.size).toBe(connectorModules.length);
  });

  it('names real commands, flags, connectors, fields and tools, with arguments the tool accepts', () => {
    const wrong: string[] = [];
    for (const example of [...helpExamples, ...fromMarkdown]) {
      try {
        for (const problem of problems(example))
          wrong.push(`${example.where}: patchbay ${example.argv.join(' ')}: ${problem}`);
      } catch (error) {
        wrong.push(`${example.where}: patchbay ${example.argv.join(' ')}: ${(error as Error).message}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('runs the ones that need no network or earlier state, exiting 0', {
    timeout: loadTimeoutMs,
  }, async () => {
    const failed: string[] = [];
    let ran = 0;
    for (const example of [...helpExamples, ...fromMarkdown]) {
      const { command } = parseCommandLine(example.argv);
      if (!command || !runnable.has(command.name)) continue;
      ran += 1;
      const result = await patchbay(example.argv, env);
      if (result.code !== 0)
        failed.push(`${example.where}: patchbay ${example.argv.join(' ')}: ${result.stderr}`);
    }
    expect(failed).toEqual([]);
    expect(ran).toBeGreaterThan(10);
  });
});

describe('shellCommands', () => {
  it('splits like a shell: quotes, comments, && and pipes', () => {
    expect(shellCommands(`X=1 patchbay call t --args '{"a":"b c"}'   # note && not this`)).toEqual([
      ['X=1', 'patchbay', 'call', 't', '--args', '{"a":"b c"}'],
    ]);
    expect(shellCommands('patchbay proposals && patchbay approve <id>')).toEqual([
      ['patchbay', 'proposals'],
      ['patchbay', 'approve', '<id>'],
    ]);
    expect(shellCommands('patchbay reject p --reason "wrong \\"repo\\""')).toEqual([
      ['patchbay', 'reject', 'p', '--reason', 'wrong "repo"'],
    ]);
  });
});
