import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  allowInsecureKeyFileEnv,
  newSecretKeyEnv,
  previousSecretKeysEnv,
  secretKeyEnv,
} from '@patchbay/store';
import { usageError } from '../cli-error.js';
import type { Command } from '../command.js';
import { exitCodes } from '../exit-codes.js';
import type { CliRuntime } from '../runtime.js';

/** The new key's text: from `--new-key-file` (owner-only, like the store's key file) or `PATCHBAY_NEW_SECRET_KEY`. */
function newKeyText(runtime: CliRuntime, file: string | undefined): string {
  if (file !== undefined) {
    const path = resolve(runtime.settings.cwd, file);
    const mode = statSync(path).mode & 0o777;
    if (
      (mode & 0o077) !== 0 &&
      process.platform !== 'win32' &&
      runtime.settings.env[allowInsecureKeyFileEnv] !== '1'
    ) {
      throw usageError(
        `The new key file ${path} has permissions 0${mode.toString(8)}; anyone who can read it can decrypt every credential. Run: chmod 600 ${path}`,
      );
    }
    return readFileSync(path, 'utf8').trim();
  }
  const fromEnvironment = runtime.settings.env[newSecretKeyEnv];
  if (fromEnvironment !== undefined && fromEnvironment.trim() !== '') return fromEnvironment.trim();
  throw usageError(`patchbay keys rotate needs the new key: --new-key-file <file> or ${newSecretKeyEnv}.`);
}

/** `patchbay keys rotate`: re-encrypts every stored credential under a new secret key. */
export const keysCommand: Command = {
  name: 'keys',
  usage: 'rotate [--new-key-file <file>] [--batch-size N]',
  summary:
    'Re-encrypt every stored credential under a new secret key, in small transactions (interrupted, run it again to resume)',
  examples: [
    'openssl rand -base64 32 > new.key && chmod 600 new.key',
    `${previousSecretKeysEnv}=<old key> ${secretKeyEnv}=<new key> on every instance, then:`,
    'patchbay keys rotate --new-key-file new.key',
    `${newSecretKeyEnv}=<new key> patchbay keys rotate --database-url postgres://…`,
  ],
  options: { 'new-key-file': { type: 'string' }, 'batch-size': { type: 'string' } },
  positionals: { required: ['action'] },
  async run(runtime, values, [action]) {
    if (action !== 'rotate') throw usageError(`Unknown keys action "${action}": use rotate.`);
    const sizeText = values['batch-size'] as string | undefined;
    const batchSize = sizeText === undefined ? 50 : Number(sizeText);
    if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000) {
      throw usageError(`--batch-size must be a whole number from 1 to 10000, not "${sizeText}".`);
    }
    const text = newKeyText(runtime, values['new-key-file'] as string | undefined);
    // The key is a secret like any other: redacted from anything printed, errors included.
    runtime.addSecret(text);
    const store = runtime.store();
    const report = await store.rotateSecretKey(text, {
      batchSize,
      afterBatch: ({ rotated }) => runtime.note(`Re-encrypted ${rotated} credentials so far.`),
    });
    await store.audit.append({ event: 'secret_key_rotated', key_id: report.keyId, rotated: report.rotated });
    if (runtime.settings.json) runtime.printJson({ key_id: report.keyId, rotated: report.rotated });
    else
      runtime.print(
        `Re-encrypted ${report.rotated} credentials; every credential is now sealed with key ${report.keyId}. ` +
          `Set ${secretKeyEnv} to the new key on every instance, then drop the old one from ${previousSecretKeysEnv}.`,
      );
    return exitCodes.ok;
  },
};
