// jira.js (a dev dependency) as the oracle for every request this connector sends. Its parameter and
// model schemas (zod) and its API functions are generated from Atlassian's published Jira Cloud
// platform OpenAPI document, which Atlassian does not publish on npm. Three checks per request:
// 1. the request is a jira.js operation (method and path template, asked of jira.js itself);
// 2. its path, query and body parameters parse with the operation's parameter schema, with no name
//    the schema does not define;
// 3. jira.js, given those parameters, sends the same request through msw (method, path, query and
//    body equal) and accepts the fixture response with its response schema (`onSchemaMismatch: 'throw'`).
// jira.js leaves rich text (`description`, comment `body`) an open object; Atlassian's own JSON Schema
// of the Atlassian Document Format (@atlaskit/adf-schema, v1 full) checks every ADF document the
// connector writes and every one its fixtures answer.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { callConnectorTool, createTestServer, type RecordedRequest } from '@patchbay/testing';
import { Ajv } from 'ajv';
import {
  addComment,
  createIssue,
  doTransition,
  getCurrentUser,
  getIssue,
  getTransitions,
  IssueTypeDetailsSchema,
  PrioritySchema,
  ProjectDetailsSchema,
  StatusDetailsSchema,
  searchAndReconsileIssuesUsingJqlPost,
  UserDetailsSchema,
} from 'jira.js/cloud';
import { type Client, createClient } from 'jira.js/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createdComment,
  createdIssue,
  issue,
  jsonHeaders,
  myself,
  searchPage,
  transitions,
} from './fixtures/jira-responses.js';
import { createJira } from './jira-connector.js';

const site = 'https://acme.atlassian.net';
const credentials = { email: 'mia@acme.example', api_token: 'ATATT3xFfGF0-test-token' };
const jira = createJira({ baseUrl: site });

const server = createTestServer({
  [`GET ${site}/rest/api/3/myself`]: { headers: jsonHeaders, body: myself },
  [`GET ${site}/rest/api/3/issue/:key`]: { headers: jsonHeaders, body: issue },
  [`POST ${site}/rest/api/3/search/jql`]: { headers: jsonHeaders, body: searchPage },
  [`POST ${site}/rest/api/3/issue`]: { status: 201, headers: jsonHeaders, body: createdIssue },
  [`POST ${site}/rest/api/3/issue/:key/comment`]: { status: 201, headers: jsonHeaders, body: createdComment },
  [`GET ${site}/rest/api/3/issue/:key/transitions`]: { headers: jsonHeaders, body: transitions },
  [`POST ${site}/rest/api/3/issue/:key/transitions`]: { status: 204 },
});

// The parameter schemas are not in jira.js's export map; load them from the installed package.
const jiraJsRoot = dirname(createRequire(import.meta.url).resolve('jira.js/package.json'));
const parameterSchemas = (await import(
  pathToFileURL(join(jiraJsRoot, 'dist/cloud/parameters/index.js')).href
)) as Record<string, z.ZodObject>;

type ApiFunction = (client: Client, parameters: never) => Promise<unknown>;
interface Operation {
  name: string;
  call: ApiFunction;
  parameters: z.ZodObject;
  pathParameters: readonly string[];
}
function operation(name: string, call: ApiFunction, pathParameters: readonly string[] = []): Operation {
  const schemaName = `${name.charAt(0).toUpperCase()}${name.slice(1)}Schema`;
  const parameters = parameterSchemas[schemaName];
  if (!parameters) throw new Error(`jira.js has no ${schemaName}`);
  return { name, call, parameters, pathParameters };
}

/** Every operation the connector may use, by jira.js's name. */
const operations = [
  operation('getCurrentUser', getCurrentUser as ApiFunction),
  operation('getIssue', getIssue as ApiFunction, ['issueIdOrKey']),
  operation('searchAndReconsileIssuesUsingJqlPost', searchAndReconsileIssuesUsingJqlPost as ApiFunction),
  operation('createIssue', createIssue as ApiFunction),
  operation('addComment', addComment as ApiFunction, ['issueIdOrKey']),
  operation('getTransitions', getTransitions as ApiFunction, ['issueIdOrKey']),
  operation('doTransition', doTransition as ApiFunction, ['issueIdOrKey']),
];

interface Template {
  method: string;
  pattern: RegExp;
}
/** The method and path jira.js uses for `op`, asked of jira.js with placeholder path parameters. */
async function templateOf(op: Operation): Promise<Template> {
  let sent: { method: string; url: string } | undefined;
  const recorder = {
    sendRequest: async (config: { method: string; url: string }) => {
      sent = config;
      return {};
    },
  } as unknown as Client;
  const placeholders = Object.fromEntries(op.pathParameters.map((name) => [name, `{${name}}`]));
  await op.call(recorder, placeholders as never);
  if (!sent) throw new Error(`jira.js ${op.name} sent nothing`);
  const source = sent.url.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, '(?<$1>[^/]+)');
  return { method: sent.method.toUpperCase(), pattern: new RegExp(`^${source}$`) };
}
const templates = new Map(
  await Promise.all(operations.map(async (op) => [op, await templateOf(op)] as const)),
);

/** A query value as jira.js would have been given it: the first reading the parameter's schema accepts. */
function decodeQuery(schema: z.ZodObject, name: string, value: string): unknown {
  const field = schema.shape[name];
  if (!field) return value;
  const readings: unknown[] = [value, value.split(','), Number(value)];
  if (value === 'true' || value === 'false') readings.push(value === 'true');
  return readings.find((reading) => field.safeParse(reading).success) ?? value;
}

interface Described {
  operation: Operation;
  parameters: Record<string, unknown>;
}

/** Which jira.js operation `call` is, and the parameters jira.js would need to send it. */
function requestOf(call: RecordedRequest): Described | undefined {
  const url = new URL(call.url);
  for (const op of operations) {
    const template = templates.get(op);
    const match = template?.method === call.method ? template.pattern.exec(url.pathname) : null;
    if (!match) continue;
    const path = Object.fromEntries(
      Object.entries(match.groups ?? {}).map(([name, value]) => [name, decodeURIComponent(value)]),
    );
    const query = Object.fromEntries(
      Object.entries(call.searchParams).map(([name, value]) => [
        name,
        decodeQuery(op.parameters, name, value),
      ]),
    );
    const body = call.body && typeof call.body === 'object' ? (call.body as Record<string, unknown>) : {};
    return { operation: op, parameters: { ...path, ...query, ...body } };
  }
  return undefined;
}

/** What is wrong with `call` by jira.js's description; empty when nothing is. */
function problemsOf(call: RecordedRequest): string[] {
  const described = requestOf(call);
  if (!described) return [`${call.method} ${new URL(call.url).pathname} is not a jira.js operation`];
  const parsed = z.strictObject(described.operation.parameters.shape).safeParse(described.parameters);
  return parsed.success
    ? []
    : parsed.error.issues.map(
        (issue) => `${described.operation.name}: ${issue.path.join('.')}: ${issue.message}`,
      );
}

// Atlassian's schema declares draft-04 and uses nothing draft-07 reads differently.
const { $schema: _draft04, ...adfSchema } = JSON.parse(
  readFileSync(
    createRequire(import.meta.url).resolve('@atlaskit/adf-schema/dist/json-schema/v1/full.json'),
    'utf8',
  ),
) as Record<string, unknown>;
const validateAdf = new Ajv({ strict: false, allErrors: true }).compile(adfSchema);

/** Every ADF document (`{ type: 'doc', ... }`) inside `value`. */
function adfDocuments(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(adfDocuments);
  if (value === null || typeof value !== 'object') return [];
  if ((value as { type?: unknown }).type === 'doc') return [value];
  return Object.values(value).flatMap(adfDocuments);
}

/** What Atlassian's ADF schema says is wrong with `document`; empty when nothing. */
function adfProblems(document: unknown): string[] {
  if (validateAdf(document)) return [];
  return (validateAdf.errors ?? []).map((error) => `${error.instancePath || '/'}: ${error.message}`);
}

const sdk = createClient({
  host: site,
  auth: { type: 'basic', email: credentials.email, apiToken: credentials.api_token },
  onSchemaMismatch: 'throw',
});

/** Sends `call` again through jira.js and returns what jira.js sent; jira.js checks the response. */
async function resendThroughJiraJs(call: RecordedRequest): Promise<RecordedRequest | undefined> {
  const described = requestOf(call);
  if (!described) return undefined;
  const before = server.calls.length;
  await described.operation.call(sdk, described.parameters as never);
  return server.calls[before];
}

/**
 * A request as the comparison sees it. A list in the query is compared by its items: jira.js repeats
 * the name (`fields=a&fields=b`), the connector joins them (`fields=a,b`); Jira reads both.
 */
const wire = (call: RecordedRequest | undefined) => {
  if (!call) return undefined;
  const url = new URL(call.url);
  const query: Record<string, string[]> = {};
  for (const name of new Set(url.searchParams.keys())) {
    query[name] = url.searchParams.getAll(name).flatMap((value) => value.split(','));
  }
  return { method: call.method, path: url.pathname, query, body: call.body ?? null };
};

async function expectDescribed(calls: readonly RecordedRequest[]) {
  expect(calls.length).toBeGreaterThan(0);
  for (const call of [...calls]) {
    expect(problemsOf(call)).toEqual([]);
    for (const document of adfDocuments(call.body)) expect(adfProblems(document)).toEqual([]);
    expect(wire(await resendThroughJiraJs(call))).toEqual(wire(call));
  }
}

const toolCalls: [string, Record<string, unknown>][] = [
  ['jira_get_issue', { issue_key: 'PROJ-7' }],
  [
    'jira_search_issues',
    { jql: 'project = PROJ ORDER BY updated DESC', max_results: 2, next_page_token: 'CAEaAggC' },
  ],
  [
    'jira_create_issue',
    {
      project_key: 'PROJ',
      summary: 'Login page times out',
      issue_type: 'Bug',
      description: 'Users wait.\nThen.',
      labels: ['auth'],
    },
  ],
  ['jira_add_comment', { issue_key: 'PROJ-7', body: 'Reproduced on Chrome.\n\nTwice.' }],
  ['jira_transition_issue', { issue_key: 'PROJ-7', status: 'Done' }],
];

describe('Jira requests against jira.js (Atlassian’s OpenAPI description as zod schemas)', () => {
  it.each(toolCalls)(
    '%s sends jira.js operations, and jira.js sends the same and accepts the answer',
    async (name, input) => {
      const envelope = await callConnectorTool(jira, name, input, { credentials });
      expect(envelope).toMatchObject({ ok: true });
      await expectDescribed(server.calls);
    },
  );

  it('verify() sends a jira.js operation, and jira.js accepts the answer', async () => {
    await expect(jira.verify(credentials)).resolves.toMatchObject({ valid: true });
    await expectDescribed(server.calls);
  });

  it('the fixtures’ issue fields the tools read match jira.js’s models of those resources', () => {
    // The OpenAPI document leaves `fields` open (its shape depends on the site's field configuration);
    // the system fields the connector reads have their own models there.
    const fields = z.looseObject({
      summary: z.string(),
      status: StatusDetailsSchema,
      issuetype: IssueTypeDetailsSchema,
      priority: PrioritySchema.optional(),
      assignee: UserDetailsSchema.nullable(),
      reporter: UserDetailsSchema.nullable().optional(),
      project: ProjectDetailsSchema.optional(),
      labels: z.array(z.string()).optional(),
      created: z.string().optional(),
      updated: z.string(),
    });
    for (const each of [issue, ...searchPage.issues]) {
      expect(fields.safeParse(each.fields).error?.issues ?? []).toEqual([]);
    }
  });

  it.each([
    'One line',
    'Users wait 30 seconds.\nThen an error.\n\nSeen on Chrome.',
    '  Indented\r\n\r\n\r\nthree blank lines\n \nand a blank-looking line\n',
  ])('the ADF the connector writes for %j is valid by Atlassian’s ADF schema', async (text) => {
    await callConnectorTool(jira, 'jira_add_comment', { issue_key: 'PROJ-7', body: text }, { credentials });
    await callConnectorTool(
      jira,
      'jira_create_issue',
      { project_key: 'PROJ', summary: 'x', description: text },
      { credentials },
    );
    const documents = server.calls.flatMap((call) => adfDocuments(call.body));
    expect(documents).toHaveLength(2);
    for (const document of documents) expect(adfProblems(document)).toEqual([]);
  });

  it('the ADF in the fixtures is valid by Atlassian’s ADF schema', () => {
    const documents = adfDocuments([issue, searchPage, createdComment]);
    expect(documents.length).toBeGreaterThanOrEqual(3);
    for (const document of documents) expect(adfProblems(document)).toEqual([]);
  });

  it('the ADF schema rejects text straight in a document and a misspelt node', () => {
    const paragraph = (content: unknown[]) => ({
      type: 'doc',
      version: 1,
      content: [{ type: 'paragraph', content }],
    });
    expect(adfProblems(paragraph([{ type: 'text', text: 'a' }, { type: 'hardBreak' }]))).toEqual([]);
    expect(adfProblems({ type: 'doc', version: 1, content: [{ type: 'text', text: 'a' }] })).not.toEqual([]);
    expect(adfProblems(paragraph([{ type: 'hardbreak' }]))).not.toEqual([]);
    expect(adfProblems(paragraph([{ type: 'text', text: '' }]))).not.toEqual([]);
  });

  it('the oracle rejects a misspelt body field, a wrong type and an unknown path', () => {
    const search = (body: unknown): RecordedRequest => ({
      method: 'POST',
      url: `${site}/rest/api/3/search/jql`,
      headers: {},
      body,
      searchParams: {},
      params: {},
    });
    expect(problemsOf(search({ jql: 'project = PROJ', maxResults: 2 }))).toEqual([]);
    expect(problemsOf(search({ jql: 'project = PROJ', maxResult: 2 })).join('\n')).toContain('maxResult');
    expect(problemsOf(search({ jql: 'project = PROJ', maxResults: '2' })).join('\n')).toContain('maxResults');
    expect(problemsOf({ ...search({ jql: 'x' }), url: `${site}/rest/api/3/search` }).join('\n')).toContain(
      'not a jira.js operation',
    );
  });

  it('the oracle rejects a fixture answer that breaks jira.js’s response schema', async () => {
    server.use({
      [`POST ${site}/rest/api/3/issue`]: {
        status: 201,
        headers: jsonHeaders,
        body: { ...createdIssue, id: 10024 },
      },
    });
    await expect(
      createIssue(sdk, { fields: { project: { key: 'PROJ' }, summary: 'x', issuetype: { name: 'Task' } } }),
    ).rejects.toThrow(/did not match the schema/);
  });
});
