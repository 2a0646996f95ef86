import { z } from 'zod';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a Linear entity UUID, false for a human identifier such as `ENG-123` or a team key. */
export function isUuid(value: string): boolean {
  return uuidPattern.test(value);
}

/** An issue identifier (`ENG-123`) or UUID, checked before it reaches a query. */
export function issueIdSchema(question: string) {
  return z
    .string()
    .trim()
    .refine(
      (value) => isUuid(value) || /^[A-Za-z][A-Za-z0-9_]*-\d+$/.test(value),
      'must be an issue identifier such as ENG-123 or an issue UUID',
    )
    .describe('Issue identifier such as ENG-123 (or the issue UUID)')
    .meta({ question });
}
