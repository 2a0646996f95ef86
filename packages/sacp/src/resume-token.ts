import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { PatchbayError } from '@patchbay/envelope';
import type { ChainCheckpoint } from './chain/types.js';

/** A secret that signs resume tokens: at least 32 bytes (a string counts its UTF-8 bytes). */
export type ResumeKey = string | Uint8Array;

/** Keys as a chain holds them: the first signs, any of them verifies. */
export type ResumeKeyRing = readonly Buffer[];

const version = 'v1';
// Binds the signature to this use, so a key the app also uses elsewhere cannot vouch for a token.
const signingLabel = `patchbay.sacp.resume-token.${version}.`;
const minimumKeyBytes = 32;
// HMAC-SHA256 is 32 bytes: 43 base64url characters without padding.
const signaturePattern = /^[A-Za-z0-9_-]{43}$/;
const payloadPattern = /^[A-Za-z0-9_-]+$/;

const invalidToken = (message: string, cause?: unknown) =>
  new PatchbayError('sacp_invalid_resume_token', message, cause === undefined ? undefined : { cause });

const invalidKey = (message: string) => new PatchbayError('sacp_invalid_resume_key', message);

/**
 * Checks a `resumeKey` option and returns its key ring; without one, a random key that lives as long
 * as the ring (a chain's: its tokens then do not survive a restart). Throws `sacp_invalid_resume_key`.
 */
export function resumeKeyRing(option: ResumeKey | readonly ResumeKey[] | undefined): ResumeKeyRing {
  if (option === undefined) return [randomBytes(minimumKeyBytes)];
  const keys = (Array.isArray(option) ? option : [option]) as readonly ResumeKey[];
  if (keys.length === 0) throw invalidKey('resumeKey must hold at least one key.');
  return keys.map((key, index) => {
    if (typeof key !== 'string' && !(key instanceof Uint8Array)) {
      throw invalidKey('resumeKey must be a string or bytes (Uint8Array), or a list of them.');
    }
    const bytes = typeof key === 'string' ? Buffer.from(key, 'utf8') : Buffer.from(key);
    if (bytes.length < minimumKeyBytes) {
      const which = keys.length > 1 ? `resumeKey[${index}]` : 'resumeKey';
      throw invalidKey(
        `${which} is ${bytes.length} bytes; a resume key must be at least ${minimumKeyBytes} bytes of secret (e.g. \`openssl rand -base64 32\`).`,
      );
    }
    return bytes;
  });
}

function sign(payload: string, key: Buffer): string {
  return createHmac('sha256', key).update(signingLabel).update(payload).digest('base64url');
}

// The caller has checked the signature's length; timingSafeEqual keeps the byte comparison from
// revealing, through its timing, how much of a forged signature was right.
function signatureMatches(payload: string, signature: string, keys: ResumeKeyRing): boolean {
  const given = Buffer.from(signature, 'ascii');
  let matched = false;
  for (const key of keys) {
    // Every key is tried even after a match, so the time taken does not tell which key signed.
    if (timingSafeEqual(given, Buffer.from(sign(payload, key), 'ascii'))) matched = true;
  }
  return matched;
}

/** Signs a checkpoint as a resume token, `v1.<payload>.<signature>` (HMAC-SHA256 with the ring's first key). */
export function signCheckpoint(checkpoint: ChainCheckpoint, keys: ResumeKeyRing): string {
  const payload = Buffer.from(JSON.stringify(checkpoint), 'utf8').toString('base64url');
  return `${version}.${payload}.${sign(payload, keys[0] as Buffer)}`;
}

/**
 * Verifies a resume token against a key ring and returns its checkpoint. Throws
 * `sacp_invalid_resume_token` when the token is malformed, was altered or truncated, or was signed
 * with another key.
 */
export function verifyCheckpoint(token: unknown, keys: ResumeKeyRing): ChainCheckpoint {
  if (typeof token !== 'string' || token === '') {
    throw invalidToken('The resume token must be a non-empty string.');
  }
  const parts = token.split('.');
  const [tokenVersion, payload = '', signature = ''] = parts;
  if (parts.length !== 3 || tokenVersion !== version || !payloadPattern.test(payload)) {
    throw invalidToken(`The resume token is malformed: expected "${version}.<payload>.<signature>".`);
  }
  if (!signaturePattern.test(signature) || !signatureMatches(payload, signature, keys)) {
    throw invalidToken(
      'The resume token does not verify: it was altered or truncated, or signed with a different resumeKey. ' +
        'A chain defined without resumeKey signs with a random key that lasts only as long as the chain object.',
    );
  }
  let checkpoint: ChainCheckpoint;
  try {
    checkpoint = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as ChainCheckpoint;
  } catch (error) {
    throw invalidToken('The resume token verifies but does not hold a chain checkpoint.', error);
  }
  if (typeof checkpoint !== 'object' || checkpoint === null || checkpoint.version !== 1) {
    throw invalidToken('The resume token verifies but does not hold a chain checkpoint.');
  }
  return checkpoint;
}
