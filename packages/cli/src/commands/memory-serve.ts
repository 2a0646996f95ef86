import type { Readable, Writable } from 'node:stream';
import type { MemoryStore } from '@patchbay/connector/ports';
import { CliError, usageError } from '../cli-error.js';
import type { CommandValues } from '../command.js';
import { type ExitCode, exitCodes } from '../exit-codes.js';
import type { CliRuntime } from '../runtime.js';
import { cliVersion } from '../version.js';
import { parseInteger, untilStopped } from './serve-process.js';

/** Port of `patchbay memory serve --http` when `--port` is not given. */
export const defaultMemoryPort = 3200;

/** `patchbay memory serve`: the user's memory as an MCP server, over stdio or streamable HTTP. */
export async function serveMemory(
  runtime: CliRuntime,
  memory: MemoryStore,
  values: CommandValues,
): Promise<ExitCode> {
  const { createMemoryServer, serveMemoryHttp } = await import('@patchbay/memory');
  const { isLoopbackHost } = await import('@patchbay/mcp/gateway');
  const http = values.http === true;
  if (!http && (values.port !== undefined || values.host !== undefined)) {
    throw usageError('--port and --host apply to --http only.');
  }
  const { subject } = runtime.settings;
  const options = { memory, subject, name: 'patchbay-memory', version: cliVersion() };
  if (http) {
    const host = (values.host as string | undefined) ?? '127.0.0.1';
    if (!isLoopbackHost(host)) {
      // Anyone who reaches the port reads and writes this user's memory: no remote binding.
      throw usageError(
        '--host must be a loopback address (127.0.0.1, ::1, localhost): the server has no authentication.',
      );
    }
    const port = parseInteger(values.port, '--port', 0, 65_535) ?? defaultMemoryPort;
    const served = await serveMemoryHttp({ ...options, host, port }).catch((error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE' || code === 'EACCES') {
        throw new CliError(
          'port_unavailable',
          `Cannot listen on ${host}:${port} (${code}). Pick another with --port, or --port 0.`,
        );
      }
      throw error;
    });
    runtime.note(`patchbay memory: serving the memory of "${subject}" at ${served.url}`);
    await untilStopped();
    await served.close();
    return exitCodes.ok;
  }
  // stdout carries protocol messages only.
  console.log = console.error;
  console.info = console.error;
  const { StdioServerTransport } = await import('../sdk.js');
  const stdin = runtime.streams.stdin as unknown as Readable;
  const server = createMemoryServer(options);
  const stopped = untilStopped((stop) => {
    // The SDK's stdio transport does not notice the host closing our stdin.
    stdin.once('end', stop);
    stdin.once('close', stop);
  });
  await server.connect(new StdioServerTransport(stdin, runtime.streams.stdout as unknown as Writable));
  runtime.note(`patchbay memory: serving the memory of "${subject}" over stdio`);
  await stopped;
  // Let requests read just before the end of input finish.
  await new Promise((resolve) => setTimeout(resolve, 50));
  await server.close();
  return exitCodes.ok;
}
