// The README's scenario-format tables, between two markers, generated from the schema.
import { scenarioFormatMarkdown } from './scenario-schema.mjs';

const start = '<!-- scenario-format:start -->';
const end = '<!-- scenario-format:end -->';

/** `readme` with the text between the scenario-format markers replaced by the generated tables. */
export function withScenarioFormat(readme) {
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README has no ${start} … ${end} section`);
  return `${readme.slice(0, from + start.length)}\n${scenarioFormatMarkdown()}\n${readme.slice(to)}`;
}
