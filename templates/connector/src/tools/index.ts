import type { AnyTool } from '@patchbay/connector';
import type { HttpClient } from '@patchbay/helpers';
import { create__Name__CreateItem } from './create-item.js';
import { create__Name__GetItem } from './get-item.js';

/** Every __NAME__ tool, bound to one HTTP client. */
export function create__Name__Tools(client: HttpClient): AnyTool[] {
  return [create__Name__GetItem(client), create__Name__CreateItem(client)];
}
