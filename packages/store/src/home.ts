import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The Patchbay home: `PATCHBAY_HOME` or `~/.patchbay`. */
export function defaultHome(environment: NodeJS.ProcessEnv = process.env): string {
  const fromEnvironment = environment.PATCHBAY_HOME;
  return fromEnvironment ? resolve(fromEnvironment) : join(homedir(), '.patchbay');
}
