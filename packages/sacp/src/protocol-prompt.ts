import { compileDataSchema, type DataKeyDescription, type DataSchema } from './data-schema.js';

/** Options of `withSacpProtocol`. */
export interface SacpProtocolOptions {
  /** Schema of this agent's `data`; its keys and descriptions are listed in the prompt. */
  dataSchema?: DataSchema | undefined;
}

const header = '## Reply format (SACP)';

const statusLines = [
  '  - "success": this step is done and the workflow may go on.',
  '  - "failure": you could not do this step; say why in "message".',
  '  - "clarification_needed": only the user can supply what is missing; ask one clear question in "message".',
  '  - "completed": the whole job is finished and nothing further needs to run.',
];

/**
 * Appends the SACP reply-format instructions to a system prompt. Pure and deterministic:
 * equal inputs give byte-identical output, so the prompt stays cacheable.
 */
export function withSacpProtocol(systemPrompt: string, options: SacpProtocolOptions = {}): string {
  const keys = options.dataSchema ? compileDataSchema(options.dataSchema).keys : [];
  const block = renderProtocolBlock(keys);
  const base = systemPrompt.trimEnd();
  return base ? `${base}\n\n${block}` : block;
}

function renderProtocolBlock(keys: DataKeyDescription[]): string {
  const lines = [
    header,
    'Your reply is read by a program that routes the workflow on it, not by a person.',
    'Answer with exactly one JSON object and nothing else: no text before or after it, no code fences, no comments.',
    'Use double quotes for every key and string, and no trailing commas.',
    '',
    'Fields:',
    '- "thought" (string): a brief note of your reasoning; it is logged for review and is not passed on.',
    '- "status" (string): exactly one of "success", "failure", "clarification_needed", "completed".',
    ...statusLines,
    '- "data" (object): the structured results the next step needs; use {} when there are none.',
    '- "message" (string): a short, plain-language summary for the user, or your question when you need clarification.',
    '- "next_step_hint" (string, optional): what you suggest should happen next.',
  ];
  if (keys.length > 0) {
    lines.push('', 'Keys of "data" for this step:');
    for (const key of keys) {
      const flag = key.required ? 'required' : 'optional';
      const description = key.description ? `: ${key.description}` : '';
      lines.push(`- "${key.key}" (${key.type}, ${flag})${description}`);
    }
  }
  lines.push('', 'Shape of a reply:', JSON.stringify(exampleReply(keys)));
  return lines.join('\n');
}

function exampleReply(keys: DataKeyDescription[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const key of keys) data[key.key] = `<${key.type}>`;
  return {
    thought: '<your reasoning>',
    status: 'success',
    data,
    message: '<summary for the user>',
  };
}
