import { z } from 'zod';

const dashedUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function dashed(hex: string): string {
  const lower = hex.toLowerCase();
  return `${lower.slice(0, 8)}-${lower.slice(8, 12)}-${lower.slice(12, 16)}-${lower.slice(16, 20)}-${lower.slice(20)}`;
}

/**
 * Reads a Notion id from what a user pastes: a dashed UUID, 32 hex digits, or a page URL
 * (`https://www.notion.so/acme/Roadmap-1f2e…?pvs=4`). Returns the dashed form, or `undefined`.
 */
export function parseNotionId(value: string): string | undefined {
  const trimmed = value.trim();
  if (dashedUuid.test(trimmed)) return trimmed.toLowerCase();
  if (/^https?:\/\//i.test(trimmed)) {
    let path: string;
    try {
      // Only the path: a query such as `?v=<view id>` or `#<block id>` names something else.
      path = new URL(trimmed).pathname;
    } catch {
      return undefined;
    }
    const lastSegment = path.split('/').filter(Boolean).at(-1) ?? '';
    // The id ends the slug (`Roadmap-<id>`); a title may itself look like hex, so anchor at the end.
    const hex = /([0-9a-f]{32})$/i.exec(lastSegment.replaceAll('-', ''))?.[1];
    return hex === undefined ? undefined : dashed(hex);
  }
  const compact = trimmed.replaceAll('-', '');
  return /^[0-9a-f]{32}$/i.test(compact) ? dashed(compact) : undefined;
}

/** A Notion page, block or data source id; also accepts a Notion URL and normalises it to a dashed id. */
export function notionIdSchema(description: string) {
  return z
    .string()
    .trim()
    .min(1)
    .describe(description)
    .transform((value, context) => {
      const id = parseNotionId(value);
      if (id === undefined) {
        context.addIssue({
          code: 'custom',
          message: 'must be a Notion id (32 hex digits, dashes allowed) or a Notion page URL',
        });
        return z.NEVER;
      }
      return id;
    });
}
