#!/usr/bin/env node
// The patchbay-eval bin. The command loads behind a version check, so an unsupported Node gets a
// sentence instead of a SyntaxError from a dependency. It exits explicitly: a live model's keep-alive
// sockets would otherwise hold the process open after the last scenario.

/** The Node versions `engines.node` allows: ^22.22.2 || ^24.15.0 || >=26. */
function supportedNode(version: string): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map(Number);
  if (major === 22) return minor > 22 || (minor === 22 && patch >= 2);
  if (major === 24) return minor >= 15;
  return major >= 26;
}

if (!supportedNode(process.versions.node)) {
  process.stderr.write(
    `patchbay-eval needs Node.js ^22.22.2, ^24.15.0 or >=26.0.0 (this is ${process.versions.node}). ` +
      'Install a supported Node.js and run it again.\n',
  );
  process.exit(1);
}

const { runCommand } = await import('./command.js');
process.exit(await runCommand(process.argv.slice(2)));
