import { describe, expect, it } from 'vitest';
import { errorDefaults } from './constructors.js';
import { errorTypes } from './error-types.js';
import { fromHttp } from './from-http.js';
import { renderEnvelopeForUser } from './render.js';

const context = { connector: 'acme' };

/** Text a person reads must not carry protocol numbers: "HTTP 502", "status 418", a bare 5xx. */
const protocolNumber = /\bHTTP\b|\bstatus \d|\b[1-5]\d\d\b/i;

describe('what a person reads about an HTTP failure', () => {
  // Every status a service can answer, with no body (so no service text adds numbers of its own).
  const statuses = Array.from({ length: 500 }, (_, index) => index + 100).filter((status) => status >= 300);

  it('never names the HTTP status in user_message, and keeps it for programs in meta.status_code', () => {
    const leaking = statuses.filter((status) =>
      protocolNumber.test(fromHttp({ status }, context).user_message),
    );
    expect(leaking).toEqual([]);
    for (const status of statuses) {
      expect(fromHttp({ status }, context).meta?.status_code).toBe(status);
    }
  });

  it('says what failed and what to do for server errors, refusals and answers it cannot read', () => {
    expect(fromHttp({ status: 502 }, context).user_message).toMatch(/problem on its side.*try again/);
    expect(fromHttp({ status: 418 }, context).user_message).toMatch(/refused the request.*try again/);
    expect(fromHttp({ status: 302 }, context).user_message).toMatch(
      /does not understand.*before trying again/,
    );
  });

  it('gives every error type a default sentence with no protocol numbers, and says what to do for internal errors', () => {
    for (const type of errorTypes) {
      expect(errorDefaults(type).message, type).not.toMatch(protocolNumber);
      const rendered = renderEnvelopeForUser({
        ok: false,
        error_type: type,
        user_message: 'x',
        retryable: false,
      });
      expect(rendered, type).not.toMatch(protocolNumber);
    }
    expect(errorDefaults('internal_error').message).toMatch(/try again/);
    expect(errorDefaults('internal_error').message).not.toMatch(/something went wrong/i);
  });
});
