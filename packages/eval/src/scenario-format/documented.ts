// The building blocks of the scenario schema: every key carries what it does and how to write its
// value (`scenarioFormatMarkdown` turns them into the README's tables).
import { z } from 'zod';

/** What a documented key says of itself: how to write its value, and what it does. */
export interface KeyDocumentation {
  type?: string;
  description?: string;
}

/** A documented key: `description` says what it does, `type` how to write its value. */
export const documented = <Schema extends z.ZodType>(schema: Schema, type: string, description: string) =>
  schema.meta({ type, description });

/** A tool name as scenarios write it. */
export const toolName = z.string().min(1);

/** An optional, documented list of `item`. */
export const listOf = <Item extends z.ZodType>(item: Item, type: string, description: string) =>
  documented(z.array(item).optional(), type, description);

/** An optional, documented list of tool names. */
export const toolList = (description: string) => listOf(toolName, 'list of tool names', description);

/** A flag that is either `true` or left out. */
export const checkFlag = (description: string) =>
  documented(
    z.literal(true, { error: 'write `true`, or leave the key out to skip this check' }).optional(),
    '`true`',
    description,
  );

/** A route: `METHOD https://host/path`. */
export const routeKey = /^(GET|POST|PUT|PATCH|DELETE) https?:\/\/\S+$/;

/** A request line a check names (`requested`). */
export const requestLine = z
  .string()
  .regex(routeKey, 'must read "METHOD https://host/path", e.g. "GET https://api.github.com/user"');
