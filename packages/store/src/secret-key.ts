import { hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PatchbayError } from '@patchbay/envelope';

/** Length in bytes of an AES-256 key. */
export const secretKeyLength = 32;

/** Environment variable holding the store's secret key (base64 or hex of 32 bytes). */
export const secretKeyEnv = 'PATCHBAY_SECRET_KEY';

/** Environment variable that, set to `1`, accepts a key file group or others can read (not recommended). */
export const allowInsecureKeyFileEnv = 'PATCHBAY_ALLOW_INSECURE_KEY_FILE';

/** Name of the key file created under the Patchbay home when no key is configured. */
export const secretKeyFileName = 'secret.key';

/**
 * Parses a 32-byte key written as 64 hex characters or base64. Throws `invalid_secret_key`
 * (without echoing the value) for anything else.
 */
export function parseSecretKey(text: string, origin: string): Buffer {
  const trimmed = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) {
    const decoded = Buffer.from(trimmed, 'base64');
    if (decoded.length === secretKeyLength) return decoded;
  }
  throw new PatchbayError(
    'invalid_secret_key',
    `The secret key from ${origin} is not 32 bytes in base64 or hex. Generate one with: openssl rand -base64 32`,
  );
}

/** Where a resolved key came from, for error messages (never the key itself). */
export interface ResolvedSecretKey {
  key: Buffer;
  origin: string;
}

/** Options of {@link resolveSecretKey}. */
export interface ResolveSecretKeyOptions {
  /** Accept a key file with group or other permission bits (default false). */
  allowInsecureKeyFile?: boolean | undefined;
}

/**
 * Refuses a key file that group or others may read or write, the way ssh refuses an unprotected
 * private key: anyone who can read it can decrypt every stored credential and forge approvals.
 * (Windows has no such mode bits; its ACLs are not checked here.)
 */
function checkKeyFileMode(file: string, options: ResolveSecretKeyOptions): void {
  if (options.allowInsecureKeyFile || process.platform === 'win32') return;
  const mode = statSync(file).mode & 0o777;
  if ((mode & 0o077) === 0) return;
  throw new PatchbayError(
    'insecure_key_file',
    `UNPROTECTED SECRET KEY FILE: permissions 0${mode.toString(8)} for ${file} are too open; it must not be accessible by others. ` +
      `Run: chmod 600 ${file} (or set ${allowInsecureKeyFileEnv}=1 to use it anyway).`,
  );
}

/**
 * Resolves the store's key: an explicit key, else `PATCHBAY_SECRET_KEY`, else `<home>/secret.key`,
 * which is created with mode 0600 on first use and refused (`insecure_key_file`) when group or
 * others have access to it. Creation uses an exclusive open so two processes starting together
 * agree on one key.
 */
export function resolveSecretKey(
  home: string,
  explicit: string | Uint8Array | undefined,
  environment: NodeJS.ProcessEnv = process.env,
  options: ResolveSecretKeyOptions = {},
): ResolvedSecretKey {
  const found = findSecretKey(home, explicit, environment, options);
  if (found) return found;
  const file = join(home, secretKeyFileName);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `${randomBytes(secretKeyLength).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    // The umask may have widened the mode; the key must be readable by its owner only.
    chmodSync(file, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const text = readFileSync(file, 'utf8');
  checkKeyFileMode(file, options);
  return { key: parseSecretKey(text, file), origin: file };
}

/**
 * The configured key (explicit, environment or an existing key file), or undefined: never creates
 * one. An existing key file that group or others can access is refused (`insecure_key_file`).
 */
export function findSecretKey(
  home: string,
  explicit: string | Uint8Array | undefined,
  environment: NodeJS.ProcessEnv = process.env,
  options: ResolveSecretKeyOptions = {},
): ResolvedSecretKey | undefined {
  if (explicit !== undefined) {
    if (typeof explicit === 'string')
      return { key: parseSecretKey(explicit, 'the secretKey option'), origin: 'the secretKey option' };
    if (explicit.length !== secretKeyLength) {
      throw new PatchbayError('invalid_secret_key', `The secretKey option must be ${secretKeyLength} bytes.`);
    }
    return { key: Buffer.from(explicit), origin: 'the secretKey option' };
  }
  const fromEnvironment = environment[secretKeyEnv];
  if (fromEnvironment !== undefined && fromEnvironment !== '') {
    return { key: parseSecretKey(fromEnvironment, secretKeyEnv), origin: secretKeyEnv };
  }
  const file = join(home, secretKeyFileName);
  try {
    const text = readFileSync(file, 'utf8');
    checkKeyFileMode(file, options);
    return { key: parseSecretKey(text, file), origin: file };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return undefined;
}

/** HKDF `info` of the proposal MAC subkey: a purpose of its own, so the key never doubles as the cipher key. */
export const proposalKeyInfo = 'patchbay proposal mac';

/**
 * The key proposals are signed with: HKDF-SHA256 of the store's secret key with its own `info`.
 * Every process with the same secret key derives the same subkey; the database never holds it.
 */
export function deriveProposalKey(secretKey: Uint8Array): Buffer {
  return Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), proposalKeyInfo, 32));
}
