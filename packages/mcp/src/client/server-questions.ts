import { type ErrorEnvelope, type MissingField, needsInput } from '@patchbay/envelope';
import type { CallToolResult } from '../sdk.js';

// Questions are shown to the user as written; a server gets a sentence or two, not a page.
const maxQuestionLength = 300;
// Seed 001's convention: a tool error that needs the user starts with "Question:". Only that marker
// at the start of a line counts — never words like "what" or "please provide" anywhere in the
// text, which ordinary error messages use too (DESIGN: detection is by type, not by matching prose;
// the marker is the server declaring the type in the only channel a plain MCP tool error has).
const questionLine = /^\s*question:\s*(\S.*)$/i;

function shortenQuestion(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > maxQuestionLength ? `${oneLine.slice(0, maxQuestionLength - 1)}…` : oneLine;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The field a free-text question is about, when the tool's schema and the arguments leave only one
 * candidate: the single input property the call did not give. Otherwise `input` — a guess would
 * send the model to fill the wrong field.
 */
function fieldOf(inputSchema: Record<string, unknown> | undefined, args: unknown): string {
  const properties = isRecord(inputSchema?.properties) ? Object.keys(inputSchema.properties) : [];
  const given = isRecord(args) ? args : {};
  const absent = properties.filter((name) => given[name] === undefined);
  return absent.length === 1 ? (absent[0] as string) : 'input';
}

/** `missing` entries of a Patchbay `needs_input` envelope sent as structured content (a Patchbay gateway upstream). */
function structuredMissing(structured: unknown): MissingField[] {
  if (
    !isRecord(structured) ||
    structured.error_type !== 'needs_input' ||
    !Array.isArray(structured.missing)
  ) {
    return [];
  }
  return structured.missing.flatMap((entry: unknown) =>
    isRecord(entry) && typeof entry.field === 'string' && typeof entry.question === 'string'
      ? [{ field: entry.field, question: shortenQuestion(entry.question) }]
      : [],
  );
}

/** The text of a result's text items, joined by newlines. */
function textOf(result: CallToolResult): string {
  return (result.content ?? [])
    .filter((item) => item.type === 'text')
    .map((item) => (item as { text: string }).text)
    .join('\n');
}

/**
 * Reads an `isError` result that asks the user something into `needs_input`: either a Patchbay
 * `needs_input` envelope as structured content, or text whose first line starts "Question:" (each
 * further "Question:" line is one more question). Any other result gives undefined and is mapped
 * as a tool error. The server's text outside the questions is dropped: it is the server's prose,
 * not a question to relay.
 */
export function questionsFromResult(
  result: CallToolResult,
  tool: { inputJsonSchema?: Record<string, unknown> | undefined },
  args: unknown,
): ErrorEnvelope | undefined {
  if (result.isError !== true) return undefined;
  const structured = structuredMissing(result.structuredContent);
  if (structured.length > 0) return needsInput({ missing: structured });
  const lines = textOf(result).split('\n');
  const firstLine = lines.find((line) => line.trim() !== '');
  if (firstLine === undefined || !questionLine.test(firstLine)) return undefined;
  const questions = lines.flatMap((line) => {
    const match = questionLine.exec(line);
    return match?.[1] ? [shortenQuestion(match[1])] : [];
  });
  // One question: the field it is about, when the schema leaves one candidate. Several: the
  // text does not say which is which, so they are numbered rather than pinned on guessed fields.
  if (questions.length === 1) {
    return needsInput({
      missing: [{ field: fieldOf(tool.inputJsonSchema, args), question: questions[0] as string }],
    });
  }
  return needsInput({
    missing: questions.map((question, index) => ({ field: `input_${index + 1}`, question })),
  });
}
