// Validates one scenario file: the schema's problems and the catalog's, each placed at the file, line
// and column it came from, with a "did you mean" suggestion for a likely typo.
import { type Document, isMap, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { type DataPath, type FoundProblem, isRecord, type ScenarioCatalog } from './catalog.js';
import { catalogProblems } from './catalog-problems.js';
import { closestName } from './closest-name.js';
import { ScenarioProblem } from './scenario-problem.js';
import { fileForms, scenarioSchema } from './scenario-schema.js';
import { schemaAt, shapeOf } from './schema-walk.js';

/** `turns[0].expect["a b"]`: a data path as the problems show it. */
const pathText = (path: readonly PropertyKey[]) =>
  path.reduce<string>((text, segment) => {
    if (typeof segment === 'number') return `${text}[${segment}]`;
    const key = String(segment);
    if (!/^[\w-]+$/.test(key)) return `${text}[${JSON.stringify(key)}]`;
    return text ? `${text}.${key}` : key;
  }, '');

/** Where `path` points in the YAML document: the key itself (`atKey`) or the value; else its nearest parent. */
function positionOf(
  document: Document,
  lineCounter: LineCounter,
  path: DataPath,
  atKey: boolean | undefined,
) {
  let node: unknown = document.contents;
  let offset = (node as { range?: [number, ...number[]] } | null)?.range?.[0] ?? 0;
  for (const [index, segment] of path.entries()) {
    const last = index === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((item) => (isScalar(item.key) ? item.key.value : item.key) === segment);
      if (!pair) break;
      const value = pair.value as { range?: [number, ...number[]] } | null;
      const key = pair.key as { range: [number, ...number[]] };
      offset = (last && atKey) || !value?.range ? key.range[0] : value.range[0];
      node = pair.value;
    } else if (isSeq(node) && typeof segment === 'number' && node.items[segment]) {
      node = node.items[segment];
      offset = (node as { range?: [number, ...number[]] }).range?.[0] ?? offset;
    } else break;
  }
  const { line, col } = lineCounter.linePos(offset);
  return { line, column: col };
}

/** The problem zod reports as an issue, with the key or value the author likely meant. */
function issueProblems(schema: z.ZodType, issue: z.core.$ZodIssue): FoundProblem[] {
  const path = issue.path as DataPath;
  if (issue.code === 'unrecognized_keys') {
    const known = Object.keys(shapeOf(schemaAt(schema, issue.path)));
    // At the top of a one-scenario file, the author may have meant another file form.
    if (issue.path.length === 0 && schema === scenarioSchema) known.push(...Object.keys(fileForms));
    return issue.keys.map((key) => ({
      path: [...path, key],
      atKey: true,
      message: `unknown key "${key}"`,
      suggestion: closestName(key, known),
    }));
  }
  if (issue.code === 'invalid_value' && issue.values?.every((item) => typeof item === 'string')) {
    const input = issue.input;
    return [
      {
        path,
        message: `"${input}" is not one of ${issue.values.map((item) => `"${String(item)}"`).join(', ')}`,
        suggestion: closestName(input as string, issue.values.map(String)),
      },
    ];
  }
  if (issue.code === 'invalid_type' && issue.input === undefined)
    return [{ path: path.slice(0, -1), message: `"${path.at(-1)}" is required` }];
  return [{ path, message: issue.message }];
}

/** The problems zod finds, one per unknown key, each with the key the author likely meant. */
function schemaProblems(schema: z.ZodType, value: unknown): FoundProblem[] {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return [];
  return result.error.issues.flatMap((issue) => issueProblems(schema, issue));
}

/** The schema of a whole file, chosen by its top-level key. */
function fileSchemaOf(document: unknown): z.ZodType {
  if (isRecord(document))
    for (const [key, schema] of Object.entries(fileForms)) if (key in document) return schema;
  return scenarioSchema;
}

/** A validated file: its parsed document (undefined when the YAML does not parse) and every problem. */
export interface ValidatedScenarioFile {
  document: unknown;
  problems: ScenarioProblem[];
}

/**
 * Validates the text of one scenario file against the format and `catalog`. Returns the parsed
 * document and every problem found, each with its file, line, column and, for a likely typo, a
 * suggestion. A YAML syntax error is one problem at its own line.
 */
export function validateScenarioFile(
  text: string,
  file: string,
  catalog: ScenarioCatalog,
): ValidatedScenarioFile {
  const lineCounter = new LineCounter();
  const yamlDocument = parseDocument(text, { lineCounter, prettyErrors: true });
  const [error] = yamlDocument.errors;
  if (error) {
    const [start] = error.linePos ?? [lineCounter.linePos(error.pos[0])];
    const message = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    return {
      document: undefined,
      problems: [
        new ScenarioProblem({ file, line: start.line, column: start.col, message: `YAML: ${message}` }),
      ],
    };
  }
  const document: unknown = yamlDocument.toJS();
  if (!isRecord(document))
    return {
      document: undefined,
      problems: [new ScenarioProblem({ file, line: 1, column: 1, message: 'a scenario file is a YAML map' })],
    };
  const found = [...schemaProblems(fileSchemaOf(document), document), ...catalogProblems(document, catalog)];
  const problems = found
    .map(({ path, atKey, message, suggestion }) => {
      const { line, column } = positionOf(yamlDocument, lineCounter, path, atKey);
      return new ScenarioProblem({ file, line, column, path: pathText(path), message, suggestion });
    })
    .sort((a, b) => a.line - b.line || a.column - b.column);
  return { document, problems };
}
