// The scenario format as markdown tables, generated from the schema (the README embeds them between
// two markers; docs.test.ts fails when they differ).
import { z } from 'zod';
import { documentedShapes } from './scenario-schema.js';
import { isOptional, shapeOf } from './schema-walk.js';

const cell = (text: unknown) => String(text).replaceAll('|', '\\|');

/** One row of a table: the key (marked when required), how to write it, what it does. */
function rowOf(key: string, field: z.core.$ZodType): string {
  const meta = z.globalRegistry.get(field) ?? {};
  const required = isOptional(field) ? '' : ' (required)';
  return `| \`${key}\`${required} | ${cell(meta.type ?? '')} | ${cell(meta.description ?? '')} |`;
}

/** The markdown tables of every scenario key, generated from the schema (the README embeds them). */
export function scenarioFormatMarkdown(): string {
  return documentedShapes
    .map(([heading, schema]) => {
      const rows = Object.entries(shapeOf(schema)).map(([key, field]) => rowOf(key, field));
      return [`#### ${heading}`, '', '| key | value | meaning |', '| --- | --- | --- |', ...rows].join('\n');
    })
    .join('\n\n');
}

const start = '<!-- scenario-format:start -->';
const end = '<!-- scenario-format:end -->';

/** `readme` with the text between the scenario-format markers replaced by the generated tables. */
export function withScenarioFormat(readme: string): string {
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README has no ${start} … ${end} section`);
  return `${readme.slice(0, from + start.length)}\n${scenarioFormatMarkdown()}\n${readme.slice(to)}`;
}
