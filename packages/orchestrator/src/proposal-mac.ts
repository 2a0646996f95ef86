import { createHmac, createSecretKey, type KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Proposal } from '@patchbay/connector/ports';
import { canonicalJson } from '@patchbay/helpers';

/** Shortest proposal key accepted: an HMAC-SHA256 key below 128 bits would be guessable offline. */
export const minimumProposalKeyLength = 16;

/** What a person approves: every field here is under the proposal's MAC. */
export type SignedProposalFields = Pick<
  Proposal,
  'id' | 'subject' | 'tool' | 'owner' | 'args' | 'createdAt' | 'definitionHash'
>;

const keyObjects = new WeakMap<Uint8Array, KeyObject>();

/** The key object for a key buffer, made once: raw bytes would make Node build one per MAC. */
function macKey(key: Uint8Array): KeyObject {
  let made = keyObjects.get(key);
  if (!made) {
    made = createSecretKey(key);
    keyObjects.set(key, made);
  }
  return made;
}

function hmac(key: Uint8Array, fields: readonly unknown[]): string {
  // Canonical JSON of an array is unambiguous: no field can bleed into its neighbour.
  return createHmac('sha256', macKey(key)).update(canonicalJson(fields)).digest('base64url');
}

function sameMac(expected: string, actual: string | undefined): boolean {
  if (typeof actual !== 'string') return false;
  const left = Buffer.from(expected);
  const right = Buffer.from(actual);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The MAC of a proposal's identity: subject, tool, owner, arguments, creation time, definition. */
export function proposalMac(key: Uint8Array, proposal: SignedProposalFields): string {
  return hmac(key, [
    'patchbay-proposal-v1',
    proposal.id,
    proposal.subject,
    proposal.tool,
    proposal.owner ?? null,
    proposal.args ?? null,
    proposal.createdAt,
    proposal.definitionHash ?? null,
  ]);
}

/** The MAC of an approval: when and by whom, bound to the proposal it approves. */
export function approvalMac(
  key: Uint8Array,
  proposal: Pick<Proposal, 'mac' | 'decidedAt' | 'decidedBy'>,
): string {
  return hmac(key, [
    'patchbay-approval-v1',
    proposal.mac ?? null,
    proposal.decidedAt ?? null,
    proposal.decidedBy ?? null,
  ]);
}

/**
 * Whether a stored proposal is what the gate signed: its MAC verifies (in constant time) under one
 * of `keys`, and when it is `approved`, so does its approval's. A proposal without a MAC (made
 * before MACs, or inserted by hand) fails.
 */
export function verifyProposal(keys: Uint8Array | readonly Uint8Array[], proposal: Proposal): boolean {
  // The current key first, then keys of before a rotation: a proposal made under the old key and
  // approved under the new one verifies with one key each.
  const candidates = keys instanceof Uint8Array ? [keys] : keys;
  let valid: boolean;
  try {
    valid = candidates.some((key) => sameMac(proposalMac(key, proposal), proposal.mac));
  } catch {
    // Arguments that cannot be canonicalised (a cycle) were never signed by the gate.
    return false;
  }
  if (!valid) return false;
  if (proposal.state !== 'approved') return true;
  return candidates.some((key) => sameMac(approvalMac(key, proposal), proposal.approvalMac));
}

/** A random key for orchestrators given none: proposals then verify only in this process. */
export function randomProposalKey(): Uint8Array {
  return randomBytes(32);
}
