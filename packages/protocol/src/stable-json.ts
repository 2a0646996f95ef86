/** JSON value as rendered into prompts. */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const child = (value as Record<string, unknown>)[key];
      if (child !== undefined) sorted[key] = sortKeys(child);
    }
    return sorted;
  }
  return value;
}

/**
 * Serialises with object keys sorted at every depth, so equal values give equal bytes whatever
 * order their keys were inserted in. `<`, `>` and `&` are written as JSON escapes: a connector error
 * message containing `</connector_status>` must not be able to close the block it sits in.
 */
export function stableStringify(value: unknown, format: 'compact' | 'pretty' = 'compact'): string {
  const json = JSON.stringify(sortKeys(value), null, format === 'pretty' ? 2 : undefined);
  return json.replace(/[<>&]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
