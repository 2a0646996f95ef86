import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createRedactingLogger } from './redacting-logger.js';

/** A pino logger writing into an array, and the text it wrote. */
function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      callback();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines, text: () => lines.join('\n') };
}

// Opaque values: no token shape would catch them, only knowing them does.
const secret = 'opaque-Value-8Hq2Zx71';
const later = 'added-Later-Kp39Wm04';

describe('createRedactingLogger', () => {
  it('removes a known secret from fields, nested values, errors, bindings and the message', () => {
    const { logger, text, lines } = capture();
    const log = createRedactingLogger({
      logger,
      bindings: { component: 'test', note: `b ${secret}` },
      secrets: [secret],
    });
    log.info({ detail: `x ${secret} y`, nested: [{ deep: { value: secret } }], [secret]: 'key' }, 'fields');
    log.error(
      { error: new Error(`upstream said ${secret}`, { cause: new Error(`inner ${secret}`) }) },
      'error',
    );
    log.warn(new Error(`thrown with ${secret}`));
    log.info(`message with ${secret} inside`);
    log.info({
      encoded: encodeURIComponent(`a ${secret}/`),
      base64: Buffer.from(`k=${secret}`).toString('base64'),
    });
    expect(lines).toHaveLength(5);
    expect(text()).toContain('upstream said [REDACTED]');
    expect(text()).toContain('message with [REDACTED] inside');
    expect(text()).toContain('"component":"test"');
    expect(text()).not.toContain(secret);
    expect(text()).not.toContain(Buffer.from(`k=${secret}`).toString('base64').slice(4, 20));
  });

  it('replaces values at secret paths whole and removes token shapes it was not told about', () => {
    const { logger, text } = capture();
    const log = createRedactingLogger({ logger });
    log.info({
      headers: { authorization: 'Basic dXNlcjpwYXNz', 'x-api-key': 'key-1234567890' },
      credentials: { token: 'anything' },
      env: { DIRECTORY_PASSWORD: 'hunter2-but-longer' },
      text: 'token ghp_0123456789abcdefghijABCDEFGHIJ012345 leaked',
    });
    expect(text()).toContain('[REDACTED]');
    for (const value of [
      'dXNlcjpwYXNz',
      'key-1234567890',
      'anything',
      'hunter2-but-longer',
      'ghp_0123456789',
    ]) {
      expect(text()).not.toContain(value);
    }
  });

  it('reads a function source at every line, so secrets learned later are removed too', () => {
    const { logger, text } = capture();
    const known: string[] = [];
    const log = createRedactingLogger({ logger, secrets: () => known });
    log.info({ value: later }, 'before');
    known.push(later);
    log.info({ value: later }, 'after');
    expect(text().match(new RegExp(later, 'g'))).toHaveLength(1);
  });

  it('keeps the secrets of a redacting logger it is made from, and children redact like their parent', () => {
    const { logger, text } = capture();
    const outer = createRedactingLogger({ logger, secrets: [secret] });
    const inner = createRedactingLogger({
      logger: outer,
      bindings: { component: 'inner' },
      secrets: [later],
    });
    inner.info({ both: `${secret} ${later}` });
    inner.child({ request: 1 }).info(`child ${secret}`);
    inner.child({ request: 2 }, { level: 'trace' }).trace({ value: later }, `trace ${secret}`);
    outer.child({}).info({ value: secret });
    expect(text()).toContain('"component":"inner"');
    expect(text().split('\n')).toHaveLength(4);
    expect(text()).not.toContain(secret);
    expect(text()).not.toContain(later);
  });

  it('survives a secret source that throws and values that cannot be read', () => {
    const { logger, text } = capture();
    const log = createRedactingLogger({
      logger,
      secrets: () => {
        throw new Error('source broke');
      },
    });
    const hostile = Object.defineProperty({}, 'boom', {
      enumerable: true,
      get() {
        throw new Error('getter');
      },
    });
    log.info({ hostile, text: 'Bearer abcdefghijklmnop' }, 'still logs');
    expect(text()).toContain('still logs');
    expect(text()).not.toContain('abcdefghijklmnop');
  });

  it('is silent without a logger', () => {
    expect(() => createRedactingLogger().info({ secret }, 'nothing')).not.toThrow();
  });
});
