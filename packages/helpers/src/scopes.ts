import type { ScopeImplication } from '@patchbay/connector';

/**
 * The granted scopes with every scope they imply added: what a connection can actually do.
 * Sorted, no duplicates; without an implication it is the granted list itself.
 */
export function expandScopes(granted: readonly string[], implied: ScopeImplication | undefined): string[] {
  const result = new Set(granted);
  if (implied) for (const scope of granted) for (const child of implied[scope] ?? []) result.add(child);
  return implied ? [...result].sort() : [...granted];
}
