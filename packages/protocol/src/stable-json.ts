import { canonicalJson } from '@patchbay/helpers';

/** JSON value as rendered into prompts. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * {@link canonicalJson} for prompts: `<`, `>` and `&` are written as JSON escapes, so a connector
 * error message containing `</connector_status>` cannot close the block it sits in.
 */
export function stableStringify(value: unknown, format: 'compact' | 'pretty' = 'compact'): string {
  return canonicalJson(value, format).replace(
    /[<>&]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
