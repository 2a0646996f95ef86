import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PatchbayError } from '@patchbay/envelope';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultMcpTimeoutMs, loadMcpServersConfig, parseMcpServersConfig } from './config.js';

/** `${NAME}` as written in a config file. */
const reference = (name: string) => `\${${name}}`;
const environment = { GITHUB_TOKEN: 'ghp_fromparent', API_KEY: 'k-123' };

function errorOf(run: () => unknown): PatchbayError {
  try {
    run();
  } catch (error) {
    if (PatchbayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a PatchbayError');
}

describe('parseMcpServersConfig', () => {
  it('parses the list form with every option and applies defaults', () => {
    const config = parseMcpServersConfig(
      {
        servers: [
          {
            name: 'files',
            command: 'node',
            args: ['server.js'],
            env: { ROOT: '/data' },
            cwd: '/srv',
            timeout: 5000,
            trust: true,
            requireApproval: true,
            prefix: 'fs',
          },
          {
            name: 'remote',
            url: 'https://mcp.example.com/mcp',
            headers: { Authorization: `Bearer ${reference('API_KEY')}` },
            autoStart: false,
          },
          { name: 'plain', command: 'plain-server' },
        ],
      },
      { environment },
    );
    expect(config.servers).toEqual([
      {
        name: 'files',
        transport: 'stdio',
        command: 'node',
        args: ['server.js'],
        env: { ROOT: '/data' },
        cwd: '/srv',
        timeout: 5000,
        autoStart: true,
        trust: true,
        requireApproval: true,
        prefix: 'fs',
      },
      {
        name: 'remote',
        transport: 'streamable-http',
        url: 'https://mcp.example.com/mcp',
        headers: { Authorization: 'Bearer k-123' },
        auth: 'auto',
        timeout: defaultMcpTimeoutMs,
        autoStart: false,
        trust: false,
        prefix: undefined,
      },
      {
        name: 'plain',
        transport: 'stdio',
        command: 'plain-server',
        args: [],
        env: {},
        cwd: undefined,
        timeout: defaultMcpTimeoutMs,
        autoStart: true,
        trust: false,
        prefix: undefined,
      },
    ]);
  });

  it('reads OAuth settings of an HTTP server, the client secret expanded from the environment', () => {
    const config = parseMcpServersConfig(
      {
        mcpServers: {
          notes: {
            url: 'https://mcp.example.com/mcp',
            auth: 'oauth',
            oauth: {
              clientId: 'cli-1',
              clientSecret: reference('API_KEY'),
              scopes: ['read'],
              redirectPort: 8765,
            },
          },
          open: { url: 'https://open.example.com/mcp', auth: 'none' },
        },
      },
      { environment },
    );
    expect(config.servers[0]).toMatchObject({
      auth: 'oauth',
      oauth: { clientId: 'cli-1', clientSecret: 'k-123', scopes: ['read'], redirectPort: 8765 },
    });
    expect(config.servers[1]).toMatchObject({ auth: 'none' });
    expect(config.servers[1]).not.toHaveProperty('oauth');
  });

  it.each([
    [
      { command: 'x', auth: 'oauth' },
      'field "auth": "auth" and "oauth" only apply to streamable HTTP servers',
    ],
    [{ url: 'https://a.example/mcp', auth: 'sometimes' }, 'field "auth"'],
    [
      { url: 'https://a.example/mcp', auth: 'none', oauth: {} },
      'field "oauth": OAuth settings given but "auth" is "none"',
    ],
    [
      { url: 'https://a.example/mcp', oauth: { clientSecret: 's3cret-value' } },
      'field "oauth.clientSecret": a client secret needs its "clientId"',
    ],
    [{ url: 'https://a.example/mcp', oauth: { redirectPort: 70_000 } }, 'field "oauth.redirectPort"'],
    [{ url: 'https://a.example/mcp', oauth: { scope: 'read' } }, 'field "oauth"'],
    [
      { url: 'https://a.example/mcp', oauth: { clientMetadataUrl: 'http://a.example/client.json' } },
      'field "oauth.clientMetadataUrl": must be an https URL with a path',
    ],
  ])('refuses bad OAuth settings %j', (entry, message) => {
    expect(() => parseMcpServersConfig({ mcpServers: { remote: entry } }, { environment })).toThrow(message);
  });

  it('parses a Claude Desktop / Cursor mcpServers object as pasted', () => {
    const config = parseMcpServersConfig(
      {
        mcpServers: {
          github: {
            command: 'npx',
            args: ['-y', '@modelcontextprotocol/server-github'],
            env: { GITHUB_PERSONAL_ACCESS_TOKEN: reference('env:GITHUB_TOKEN') },
          },
          linear: { url: 'https://mcp.linear.app/mcp' },
          old: { command: 'old-server', disabled: true },
          typed: { type: 'stdio', command: 'typed-server', prefix: true },
        },
      },
      { environment },
    );
    expect(config.servers.map((server) => [server.name, server.transport, server.autoStart])).toEqual([
      ['github', 'stdio', true],
      ['linear', 'streamable-http', true],
      ['old', 'stdio', false],
      ['typed', 'stdio', true],
    ]);
    expect(config.servers[0]).toMatchObject({ env: { GITHUB_PERSONAL_ACCESS_TOKEN: 'ghp_fromparent' } });
    expect(config.servers[3]).toMatchObject({ prefix: 'typed' });
  });

  it("accepts seed 003's bare array of servers, with the same defaults and errors as the list form", () => {
    const seedForm = [
      { name: 'files', command: 'node', args: ['files.js'], env: { ROOT: '/srv' }, autoStart: false },
      { name: 'notes', command: 'notes-server', timeout: 2500 },
    ];
    const bare = parseMcpServersConfig(seedForm);
    expect(bare).toEqual(parseMcpServersConfig({ servers: seedForm }));
    expect(bare.servers.map((server) => [server.name, server.autoStart, server.timeout])).toEqual([
      ['files', false, defaultMcpTimeoutMs],
      ['notes', true, 2500],
    ]);
    expect(defaultMcpTimeoutMs).toBe(10_000);
    expect(errorOf(() => parseMcpServersConfig([{ name: 'broken', command: 42 }])).message).toMatch(
      /server "broken": field "command"/,
    );
    expect(errorOf(() => parseMcpServersConfig([{ command: 'x' }])).message).toMatch(
      /field "servers\.0\.name"/,
    );
  });

  it('names the server and the field of a bad entry', () => {
    expect(
      errorOf(() => parseMcpServersConfig({ servers: [{ name: 'broken', command: 42 }] })).message,
    ).toMatch(/server "broken": field "command"/);
    expect(errorOf(() => parseMcpServersConfig({ mcpServers: { empty: {} } })).message).toMatch(
      /server "empty": field "command"/,
    );
    expect(
      errorOf(() => parseMcpServersConfig({ mcpServers: { slow: { command: 'x', timeout: -1 } } })).message,
    ).toMatch(/server "slow": field "timeout"/);
    expect(
      errorOf(() => parseMcpServersConfig({ mcpServers: { both: { command: 'x', url: 'http://a/' } } }))
        .message,
    ).toMatch(/server "both": field "url"/);
    expect(
      errorOf(() => parseMcpServersConfig({ mcpServers: { legacy: { type: 'sse', url: 'http://a/sse' } } }))
        .message,
    ).toMatch(/server "legacy": field "type": .*SSE/);
    expect(
      errorOf(() =>
        parseMcpServersConfig({
          servers: [
            { name: 'a', command: 'x' },
            { name: 'a', command: 'y' },
          ],
        }),
      ).code,
    ).toBe('invalid_mcp_config');
    expect(errorOf(() => parseMcpServersConfig({ tools: [] })).message).toMatch(
      /expected \[\.\.\.\], \{ "servers"/,
    );
  });

  it('refuses an env reference to a variable the parent does not have, without printing other values', () => {
    const error = errorOf(() =>
      parseMcpServersConfig(
        {
          mcpServers: {
            gh: {
              command: 'x',
              env: { TOKEN: reference('NOT_SET_ANYWHERE'), OTHER: reference('GITHUB_TOKEN') },
            },
          },
        },
        { environment },
      ),
    );
    expect(error.message).toMatch(/server "gh": field "env.TOKEN": references \$\{NOT_SET_ANYWHERE\}/);
    expect(error.message).not.toContain('ghp_fromparent');
  });
});

describe('loadMcpServersConfig', () => {
  const directories: string[] = [];
  afterAll(async () => {
    await Promise.all(directories.map((directory) => rm(directory, { recursive: true, force: true })));
  });

  it('reads a file and resolves a relative cwd against the file directory', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'patchbay-mcp-config-'));
    directories.push(directory);
    const path = join(directory, 'mcp-servers.json');
    await writeFile(
      path,
      JSON.stringify({ mcpServers: { local: { command: 'node', args: ['s.js'], cwd: 'servers/local' } } }),
    );
    const config = await loadMcpServersConfig(path);
    expect(config.servers[0]).toMatchObject({ name: 'local', cwd: join(directory, 'servers/local') });
  });

  it('reports a file that is not JSON by path', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'patchbay-mcp-config-'));
    directories.push(directory);
    const path = join(directory, 'mcp-servers.json');
    await writeFile(path, '{ "servers": [ ');
    await expect(loadMcpServersConfig(path)).rejects.toThrow(/mcp-servers\.json: is not valid JSON/);
  });

  it('accepts an object directly', async () => {
    const config = await loadMcpServersConfig({
      servers: [{ name: 'inline', url: 'http://127.0.0.1:9/mcp' }],
    });
    expect(config.servers[0]).toMatchObject({ name: 'inline', transport: 'streamable-http' });
  });
});
