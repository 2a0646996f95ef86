import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliPackageDirectory } from './discover-connectors.js';

/** The installed CLI's version, from its package.json. */
export function cliVersion(): string {
  try {
    return (
      JSON.parse(readFileSync(join(cliPackageDirectory(), 'package.json'), 'utf8')) as { version: string }
    ).version;
  } catch {
    return 'unknown';
  }
}
