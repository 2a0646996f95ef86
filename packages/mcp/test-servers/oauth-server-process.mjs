// Starts oauth-server.mjs (the in-repo authorization server and protected MCP server) as a child
// process and resolves once it prints `listening <base URL>`: shared by the MCP, CLI and turn tests.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./oauth-server.mjs', import.meta.url));

/** Starts the test OAuth server; `stop()` ends it. */
export async function startOAuthServer(env = {}) {
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk.toString('utf8');
      const match = /listening (\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`oauth-server exited with ${code}`)));
  });
  return {
    base,
    url: `${base}/mcp`,
    stats: async () => (await fetch(`${base}/test/stats`)).json(),
    revokeAll: async () => {
      await fetch(`${base}/test/revoke-all`, { method: 'POST' });
    },
    expireAccessTokens: async () => {
      await fetch(`${base}/test/expire-access-tokens`, { method: 'POST' });
    },
    stop: () => {
      child.kill('SIGTERM');
    },
  };
}
