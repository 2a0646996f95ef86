import type { Scope } from '@patchbay/connector';

/** The scopes the __NAME__ tools use, with what each grants. TODO(connector author): the service's real scope names. */
export const __id__Scopes: Scope[] = [
  { name: 'items:read', description: 'Read items' },
  { name: 'items:write', description: 'Create and update items' },
];
