import { HttpError } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { formErrors, mapDiscordError } from './discord-errors.js';

describe('Discord error signals', () => {
  it('flattens nested form errors into field paths', () => {
    expect(
      formErrors({
        content: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 2000 or fewer in length.' }] },
        embeds: {
          '0': { title: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] } },
        },
      }),
    ).toEqual(['content: Must be 2000 or fewer in length.', 'embeds.0.title: This field is required']);
  });

  it('treats slowmode (20016) as a rate limit whatever the status', () => {
    const mapped = mapDiscordError(
      new HttpError({ status: 400, body: { code: 20016, message: 'Slowmode', retry_after: 4.5 } }),
      { method: 'POST', path: '/channels/1/messages' },
    );
    expect(mapped.status).toBe(429);
    expect(mapped.headers.get('retry-after')).toBe('4.5');
  });

  it('passes other failures through unchanged', () => {
    const original = new HttpError({ status: 404, body: { code: 10003, message: 'Unknown Channel' } });
    expect(mapDiscordError(original, { path: '/channels/1', requiredScopes: ['SEND_MESSAGES'] })).toBe(
      original,
    );
  });

  it('names the call’s requiredScopes on Missing Permissions and VIEW_CHANNEL on Missing Access', () => {
    const headers = { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset-after': '1.5' };
    const refused = (code: number) =>
      new HttpError({ status: 403, headers, body: { code, message: 'Missing' } });
    const request = {
      path: '/channels/1/messages',
      requiredScopes: ['VIEW_CHANNEL', 'READ_MESSAGE_HISTORY'],
    } as const;
    const missingPermissions = mapDiscordError(refused(50013), request);
    expect(missingPermissions.missingScopes).toEqual(['VIEW_CHANNEL', 'READ_MESSAGE_HISTORY']);
    // A refusal that used up a bucket is still a refusal, not a rate limit.
    expect(missingPermissions.headers.has('x-ratelimit-remaining')).toBe(false);
    expect(mapDiscordError(refused(50001), request).missingScopes).toEqual(['VIEW_CHANNEL']);
    expect(mapDiscordError(refused(50001), { path: '/guilds/1' }).missingScopes).toBeUndefined();
  });
});
