import { z } from 'zod';

/** A Discord id (snowflake): a decimal string, as Discord sends ids to keep 64-bit precision. */
export function snowflakeSchema(description: string) {
  return z
    .string()
    .trim()
    .regex(/^\d{15,21}$/, 'must be a numeric Discord id (snowflake); list servers or channels to find it')
    .describe(description);
}
