import { createHash } from 'node:crypto';
import { canonicalJson } from '@patchbay/helpers';

/** Hex SHA-256 of the canonical JSON of a value: the identity of a call's arguments. */
export function argsHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
