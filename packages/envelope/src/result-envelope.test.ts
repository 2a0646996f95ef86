import { describe, expect, it } from 'vitest';
import { failure, success } from './constructors.js';
import { resultEnvelope } from './result-envelope.js';

describe('resultEnvelope', () => {
  it("reads seed 000's error object as a failure, never as data", () => {
    const seed = {
      ok: false,
      error_type: 'connector_not_configured',
      user_message: 'Slack is not connected. Set it up in Settings → Integrations → Slack.',
      connector: 'slack',
      setup_url: '/settings/integrations/slack',
    };
    expect(resultEnvelope(seed)).toEqual({
      ok: false,
      error_type: 'connector_not_configured',
      user_message: seed.user_message,
      connector: 'slack',
      setup_url: '/settings/integrations/slack',
      retryable: false,
    });
  });

  it('reads the same object without `ok` as a failure too', () => {
    const envelope = resultEnvelope({
      error_type: 'rate_limited',
      user_message: 'Slow down.',
      retry_after_s: 30,
    });
    expect(envelope).toMatchObject({
      ok: false,
      error_type: 'rate_limited',
      retry_after_s: 30,
      retryable: true,
    });
  });

  it('keeps the message of an error type outside the taxonomy, as upstream_error', () => {
    expect(
      resultEnvelope({ ok: false, error_type: 'quota_exceeded', user_message: 'Out of quota.' }),
    ).toMatchObject({
      ok: false,
      error_type: 'upstream_error',
      user_message: 'Out of quota.',
    });
  });

  it('passes envelopes through and wraps anything else as data', () => {
    expect(resultEnvelope(failure('not_found'))).toEqual(failure('not_found'));
    expect(resultEnvelope(success({ id: 1 }))).toEqual(success({ id: 1 }));
    expect(resultEnvelope({ id: 1, error_type: 'x' })).toEqual(success({ id: 1, error_type: 'x' }));
    expect(resultEnvelope('done')).toEqual(success('done'));
    expect(resultEnvelope([1, 2])).toEqual(success([1, 2]));
  });
});
