/**
 * The sentence for a tool name several owners declare (MCP servers, or a server and a connector):
 * who declares it, that none of them runs it, and the fix. The gateway, `patchbay call` and
 * `patchbay servers` say the same, so a person hears one rule wherever they meet it.
 * Owners are named in sorted order: servers start at once, and which one claimed the name first must
 * not change the sentence (a person, a log search or a test reads the same words every time).
 * @param owners agent ids: server names, `connector:<id>` for a connector.
 */
export function sharedToolNameMessage(tool: string, claimants: readonly string[]): string {
  const owners = [...claimants].sort();
  const named = owners.map((owner) =>
    owner.startsWith('connector:') ? `the connector "${owner.slice('connector:'.length)}"` : `"${owner}"`,
  );
  const list =
    named.length <= 2 ? named.join(' and ') : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
  const servers = owners.filter((owner) => !owner.startsWith('connector:'));
  const example = servers.at(-1) ?? 'name';
  return (
    `The tool "${tool}" is declared by ${list}; Patchbay runs ${owners.length > 2 ? 'none of them' : 'neither'} ` +
    `rather than guess which one was meant. Give ${servers.length > 1 ? 'one of the servers' : `the server "${example}"`} a "prefix" in ` +
    `mcp-servers.json (for example "prefix": "${example}" makes its tool "${example}_${tool}").`
  );
}
