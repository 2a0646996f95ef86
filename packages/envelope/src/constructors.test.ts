import { describe, expect, it } from 'vitest';
import {
  approvalDenied,
  approvalRequired,
  cancelled,
  conflict,
  disabledByAdmin,
  errorDefaults,
  failure,
  internalError,
  invalidArguments,
  invalidCredentials,
  needsInput,
  networkError,
  notConfigured,
  notFound,
  permissionDenied,
  rateLimited,
  success,
  timeout,
  toolUnavailable,
  upstreamError,
} from './constructors.js';
import { type ErrorEnvelope, errorEnvelopeSchema, isEnvelope, isErrorEnvelope } from './envelope.js';
import { type ErrorType, errorTypes } from './error-types.js';

const named: Record<ErrorType, () => ErrorEnvelope> = {
  connector_not_configured: () => notConfigured({ connector: 'slack' }),
  invalid_credentials: () => invalidCredentials(),
  rate_limited: () => rateLimited(),
  permission_denied: () => permissionDenied(),
  disabled_by_admin: () => disabledByAdmin(),
  needs_input: () => needsInput({ missing: [{ field: 'to', question: 'Who should receive it?' }] }),
  invalid_arguments: () => invalidArguments({ issues: [{ path: 'count', message: 'must be a number' }] }),
  not_found: () => notFound(),
  conflict: () => conflict(),
  upstream_error: () => upstreamError(),
  network_error: () => networkError(),
  timeout: () => timeout(),
  cancelled: () => cancelled(),
  tool_unavailable: () => toolUnavailable(),
  approval_required: () => approvalRequired({ proposalId: 'p-1' }),
  approval_denied: () => approvalDenied(),
  internal_error: () => internalError(),
};

describe('constructors', () => {
  it.each(errorTypes)('%s has a named constructor producing a valid envelope with its defaults', (type) => {
    const envelope = named[type]();
    expect(errorEnvelopeSchema.parse(envelope)).toEqual(envelope);
    expect(envelope.error_type).toBe(type);
    expect(envelope.retryable).toBe(errorDefaults(type).retryable);
    expect(envelope.user_message.length).toBeGreaterThan(0);
  });

  it('retries by default only what may succeed later', () => {
    const retryable = errorTypes.filter((type) => errorDefaults(type).retryable);
    expect(retryable).toEqual(['rate_limited', 'upstream_error', 'network_error', 'timeout']);
  });

  it('does not retry a cancelled call: the person stopped it, unlike a deadline that passed', () => {
    expect(cancelled()).toEqual({
      ok: false,
      error_type: 'cancelled',
      user_message: 'The request was cancelled, so it was stopped.',
      retryable: false,
    });
    expect(timeout().retryable).toBe(true);
  });

  it('builds a success envelope with and without meta', () => {
    expect(success({ id: 1 })).toEqual({ ok: true, data: { id: 1 } });
    expect(success(1, { tool: 'x_y' })).toEqual({ ok: true, data: 1, meta: { tool: 'x_y' } });
    expect(isEnvelope(success(undefined))).toBe(true);
  });

  it('tells plain results from envelopes, a wrong-typed ok and a malformed failure included', () => {
    for (const value of ['Echo: x', 42, null, undefined, [], {}, { data: 1 }, { ok: 'true', data: 1 }]) {
      expect(isEnvelope(value)).toBe(false);
    }
    expect(isEnvelope({ ok: false, error_type: 'not_a_type', user_message: 'x' })).toBe(false);
    expect(isEnvelope(failure('timeout', { userMessage: 'Took too long.' }))).toBe(true);
  });

  it('writes wire fields in snake_case and leaves unset ones out', () => {
    const envelope = failure('rate_limited', {
      connector: 'slack',
      setupUrl: 'https://x.test/setup',
      retryAfterS: 29.2,
      userMessage: 'Slow down.',
      retryable: false,
    });
    expect(envelope).toEqual({
      ok: false,
      error_type: 'rate_limited',
      user_message: 'Slow down.',
      connector: 'slack',
      setup_url: 'https://x.test/setup',
      retry_after_s: 30,
      retryable: false,
    });
    expect(Object.keys(failure('not_found'))).toEqual(['ok', 'error_type', 'user_message', 'retryable']);
  });

  it('drops a retry delay that is not a finite number and clamps negatives', () => {
    expect(failure('rate_limited', { retryAfterS: Number.NaN })).not.toHaveProperty('retry_after_s');
    expect(failure('rate_limited', { retryAfterS: -5 }).retry_after_s).toBe(0);
  });

  it('lists missing scopes, missing fields and the proposal id', () => {
    expect(permissionDenied({ missingScopes: ['repo'] }).missing_scopes).toEqual(['repo']);
    expect(approvalRequired({ proposalId: 'p-9' }).proposal_id).toBe('p-9');
    expect(
      needsInput({
        missing: [
          { field: 'a', question: 'A?' },
          { field: 'b', question: 'B?' },
        ],
      }),
    ).toMatchObject({
      user_message: 'A? B?',
      missing: [
        { field: 'a', question: 'A?' },
        { field: 'b', question: 'B?' },
      ],
    });
  });

  it('gives needs_input without fields the default sentence', () => {
    expect(needsInput({ missing: [] }).user_message).toBe(errorDefaults('needs_input').message);
  });

  it('tells failed envelopes apart', () => {
    expect(isErrorEnvelope(notFound())).toBe(true);
    expect(isErrorEnvelope(success(1))).toBe(false);
  });
});
