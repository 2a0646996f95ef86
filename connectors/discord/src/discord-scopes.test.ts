import { describe, expect, it } from 'vitest';
import { permissionNames } from './discord-scopes.js';

describe('permissionNames', () => {
  it('names the modelled flags of a bitfield string', () => {
    expect(permissionNames(String((1 << 10) | (1 << 16)))).toEqual(['VIEW_CHANNEL', 'READ_MESSAGE_HISTORY']);
  });

  it('reads bitfields beyond 53 bits without losing flags', () => {
    expect(permissionNames('2251799813687296')).toEqual(['SEND_MESSAGES']);
  });

  it('treats ADMINISTRATOR as every permission', () => {
    expect(permissionNames('8')).toEqual([
      'VIEW_CHANNEL',
      'SEND_MESSAGES',
      'MANAGE_MESSAGES',
      'READ_MESSAGE_HISTORY',
    ]);
  });

  it('grants nothing for a missing or malformed value', () => {
    expect(permissionNames(undefined)).toEqual([]);
    expect(permissionNames('not a number')).toEqual([]);
  });
});
