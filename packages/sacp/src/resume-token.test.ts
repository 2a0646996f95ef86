import { randomBytes } from 'node:crypto';
import { PatchbayError } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { type ChainCheckpoint, type ChainDefinition, defineChain } from './chain.js';
import type { SacpReply } from './reply.js';
import { type ResumeKey, resumeKeyRing, signCheckpoint, verifyCheckpoint } from './resume-token.js';

const key = 'k'.repeat(32);
const otherKey = 'o'.repeat(32);

const reply = (status: SacpReply['status'], message = ''): SacpReply => ({
  thought: '',
  status,
  data: {},
  message,
});

/** A chain that asks which account to use, then books with the answer. */
function bookingChain(resumeKey?: ResumeKey | readonly ResumeKey[]) {
  const definition: ChainDefinition = {
    id: 'booking',
    nodes: {
      ask: (_input, { answer }) =>
        answer === undefined
          ? reply('clarification_needed', 'Which account should I charge?')
          : reply('success', `Charging ${String(answer)}.`),
      book: { input: 'Book on {{answer}}', run: (input) => reply('completed', String(input)) },
    },
    edges: [{ from: 'ask', to: 'book', status: 'success' }],
    start: 'ask',
    resumeKey,
  };
  return defineChain(definition);
}

async function pausedToken(resumeKey?: ResumeKey | readonly ResumeKey[]): Promise<string> {
  const paused = await bookingChain(resumeKey).run({ amount: 120 });
  if (paused.state !== 'paused') throw new Error(`expected a pause, got ${paused.state}`);
  return paused.resumeToken;
}

/** Runs `resume` and returns what it threw. */
async function resumeError(token: unknown, resumeKey: ResumeKey | readonly ResumeKey[] = key) {
  try {
    await bookingChain(resumeKey).resume(token as string, 'the team card');
  } catch (error) {
    return error as PatchbayError;
  }
  throw new Error('resume did not throw');
}

/** Re-encodes a token's payload after `edit`, keeping its signature. */
function editPayload(token: string, edit: (checkpoint: ChainCheckpoint) => void): string {
  const [version, payload, signature] = token.split('.');
  const checkpoint = JSON.parse(Buffer.from(payload as string, 'base64url').toString('utf8'));
  edit(checkpoint);
  return [version, Buffer.from(JSON.stringify(checkpoint)).toString('base64url'), signature].join('.');
}

describe('resume tokens: round trip', () => {
  it('resumes on the chain that paused, with or without a resumeKey', async () => {
    for (const resumeKey of [undefined, key]) {
      const chain = bookingChain(resumeKey);
      const paused = await chain.run({ amount: 120 });
      if (paused.state !== 'paused') throw new Error('expected a pause');
      expect(paused.resumeToken).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
      const resumed = await chain.resume(paused.resumeToken, 'the team card');
      expect(resumed.state).toBe('done');
      expect(resumed.reply.message).toBe('Book on the team card');
    }
  });

  it('resumes in a new process: a chain defined again with the same key accepts the token', async () => {
    const token = await pausedToken(key);
    // Nothing is shared with the chain that paused but the key, as after a restart.
    const restarted = bookingChain(Buffer.from(key));
    const resumed = await restarted.resume(JSON.parse(JSON.stringify(token)), 'the team card');
    expect(resumed.state).toBe('done');
    expect(resumed.steps).toBe(3);
  });

  it('accepts tokens signed with an older key while the first key signs new ones (rotation)', async () => {
    const oldToken = await pausedToken(otherKey);
    const rotated = bookingChain([key, otherKey]);
    expect((await rotated.resume(oldToken, 'the team card')).state).toBe('done');

    const paused = await rotated.run({ amount: 5 });
    if (paused.state !== 'paused') throw new Error('expected a pause');
    expect((await bookingChain(key).resume(paused.resumeToken, 'cash')).state).toBe('done');
    expect((await resumeError(paused.resumeToken, otherKey)).code).toBe('sacp_invalid_resume_token');
  });

  it('signs with the first key of a ring and verifies with any of its keys, and no other', async () => {
    const paused = await bookingChain(key).run({ amount: 120 });
    if (paused.state !== 'paused') throw new Error('expected a pause');
    const token = signCheckpoint(paused.checkpoint, resumeKeyRing([key, otherKey]));
    expect(verifyCheckpoint(token, resumeKeyRing(key))).toEqual(paused.checkpoint);
    expect(verifyCheckpoint(token, resumeKeyRing([otherKey, key]))).toEqual(paused.checkpoint);
    expect(() => verifyCheckpoint(token, resumeKeyRing(otherKey))).toThrow(/does not verify/);
  });
});

describe('resume tokens: tampering gives sacp_invalid_resume_token', () => {
  const doesNotVerify = /does not verify: it was altered or truncated, or signed with a different resumeKey/;

  it('refuses an edited payload, even one that is still a valid checkpoint', async () => {
    const token = await pausedToken(key);
    for (const edited of [
      editPayload(token, (checkpoint) => {
        checkpoint.input = { amount: 1_000_000 };
      }),
      editPayload(token, (checkpoint) => {
        checkpoint.steps = 0;
      }),
    ]) {
      const error = await resumeError(edited);
      expect(PatchbayError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'sacp_invalid_resume_token' });
      expect(error.message).toMatch(doesNotVerify);
    }
  });

  it('refuses a token signed with another key, and one from a chain without resumeKey after a restart', async () => {
    expect(await resumeError(await pausedToken(otherKey))).toMatchObject({
      code: 'sacp_invalid_resume_token',
      message: expect.stringMatching(doesNotVerify),
    });
    const withoutKey = await pausedToken(undefined);
    expect(await resumeError(withoutKey, randomBytes(32))).toMatchObject({
      code: 'sacp_invalid_resume_token',
      message: expect.stringContaining('A chain defined without resumeKey signs with a random key'),
    });
  });

  it('refuses a truncated token or signature, and a signature moved from another token', async () => {
    const token = await pausedToken(key);
    const other = await (async () => {
      const paused = await bookingChain(key).run({ amount: 7 });
      if (paused.state !== 'paused') throw new Error('expected a pause');
      return paused.resumeToken;
    })();
    const [version, payload, signature] = token.split('.') as [string, string, string];
    const swapped = [version, payload, other.split('.')[2]].join('.');
    for (const broken of [
      token.slice(0, -1),
      token.slice(0, -10),
      `${version}.${payload.slice(0, -4)}.${signature}`,
      swapped,
    ]) {
      expect(await resumeError(broken)).toMatchObject({
        code: 'sacp_invalid_resume_token',
        message: expect.stringMatching(doesNotVerify),
      });
    }
    // Cut before the signature: no longer three parts.
    expect((await resumeError(token.slice(0, token.lastIndexOf('.')))).message).toMatch(/malformed/);
  });

  it('refuses garbage, other versions and the old unsigned form, without echoing the token', async () => {
    const checkpoint = verifyCheckpoint(await pausedToken(key), resumeKeyRing(key));
    const unsigned = Buffer.from(JSON.stringify(checkpoint)).toString('base64url');
    for (const garbage of ['not-a-token', 'v1..', 'v2.e30.AAAA', unsigned, 'v1.e30.!!!', '{"version":1}']) {
      const error = await resumeError(garbage);
      expect(error).toMatchObject({ code: 'sacp_invalid_resume_token' });
      expect(error.message).toMatch(/malformed|does not verify/);
      expect(error.message).not.toContain(garbage);
    }
    for (const notAString of ['', 42, null]) {
      expect(await resumeError(notAString)).toMatchObject({
        code: 'sacp_invalid_resume_token',
        message: 'The resume token must be a non-empty string.',
      });
    }
  });

  it('says when a correctly signed token holds no checkpoint', () => {
    const token = signCheckpoint({ version: 2 } as unknown as ChainCheckpoint, resumeKeyRing(key));
    expect(() => verifyCheckpoint(token, resumeKeyRing(key))).toThrow(
      expect.objectContaining({
        code: 'sacp_invalid_resume_token',
        message: 'The resume token verifies but does not hold a chain checkpoint.',
      }),
    );
  });
});

describe('resume keys', () => {
  it('refuses a key shorter than 32 bytes, an empty key list and a non-key when the chain is defined', () => {
    expect(() => bookingChain('short')).toThrow(
      expect.objectContaining({
        code: 'sacp_invalid_resume_key',
        message: expect.stringContaining('resumeKey is 5 bytes; a resume key must be at least 32 bytes'),
      }),
    );
    expect(() => bookingChain([key, 'short'])).toThrow(/resumeKey\[1\] is 5 bytes/);
    expect(() => bookingChain([])).toThrow(/at least one key/);
    expect(() => bookingChain(42 as never)).toThrow(/string or bytes/);
  });

  it('never puts the key into the token', async () => {
    const token = await pausedToken(key);
    const decoded = Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8');
    expect(token).not.toContain(key);
    expect(decoded).not.toContain(key);
  });
});
