import { HttpError, PatchbayError } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { ConsoleHttpError } from './api-routes.js';

describe('ConsoleHttpError', () => {
  it('is a PatchbayError with a code that follows its status, and keeps status and message', () => {
    const error = new ConsoleHttpError(404, 'No connector "x" is installed.');
    expect(PatchbayError.isInstance(error)).toBe(true);
    expect(error).toBeInstanceOf(PatchbayError);
    expect(error.status).toBe(404);
    expect(error.message).toBe('No connector "x" is installed.');
    expect(error.name).toBe('ConsoleHttpError');
    expect(error.code).toBe('not_found');
    expect(new ConsoleHttpError(409, 'Already approved.').code).toBe('conflict');
    expect(new ConsoleHttpError(400, 'Bad.').code).toBe('invalid_arguments');
    expect(new ConsoleHttpError(418, 'Teapot.').code).toBe('internal_error');
  });

  it('answers isInstance for its own instances only, not for its parent or a sibling', () => {
    // Without its own brand, ConsoleHttpError.isInstance would answer for every PatchbayError.
    expect(ConsoleHttpError.isInstance(new ConsoleHttpError(403, 'No.'))).toBe(true);
    expect(ConsoleHttpError.isInstance(new PatchbayError('not_found', 'plain'))).toBe(false);
    expect(ConsoleHttpError.isInstance(new HttpError({ status: 404, message: 'upstream' }))).toBe(false);
    expect(HttpError.isInstance(new ConsoleHttpError(404, 'No.'))).toBe(false);
  });
});
