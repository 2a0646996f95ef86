import type { JsonSchema } from './tool.js';

/**
 * The plain question put to a user for a missing input field: the schema's `question` when it has one,
 * else one built from the field name and its description.
 */
export function questionForField(field: string, property: JsonSchema | undefined): string {
  if (typeof property?.question === 'string' && property.question.trim() !== '') return property.question;
  const label = field.replaceAll('_', ' ');
  const description =
    typeof property?.description === 'string' ? property.description.trim().replace(/\.$/, '') : '';
  return description
    ? `What should I use for ${label} (${description.charAt(0).toLowerCase()}${description.slice(1)})?`
    : `What should I use for ${label}?`;
}

/** Lists the paths of object properties that carry no description, recursing into nested objects and arrays. */
export function undescribedFields(schema: JsonSchema, prefix = ''): string[] {
  const missing: string[] = [];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  for (const [key, property] of Object.entries(properties)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof property.description !== 'string' || property.description.trim() === '') missing.push(path);
    missing.push(...undescribedFields(property, path));
    if (property.items && typeof property.items === 'object') {
      missing.push(...undescribedFields(property.items as JsonSchema, `${path}[]`));
    }
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
      for (const branch of (property[key] as JsonSchema[] | undefined) ?? [])
        missing.push(...undescribedFields(branch, path));
    }
  }
  return missing;
}
