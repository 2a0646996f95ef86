// Twilio's own OpenAPI description of the 2010-04-01 REST API (twilio_api_v2010.json from
// twilio/twilio-oai, the document the Twilio SDKs are generated from) as the oracle for every request
// this connector sends and every answer its fixtures give. Twilio publishes it on npm inside its
// `@twilio-alpha/mcp` package (a dev dependency here); Ajv validates against it:
// - the path is one of the document's paths, with the method defined there and the path parameters
//   matching their schemas (Account and Message SID patterns);
// - every query parameter and every form field is one the operation defines, each value valid by
//   its schema, required ones present;
// - the fixture answer for each request matches the operation's response schema for that status.
// Formats (`phone-number`, `date-time`, `uri`) are not checked: Twilio's own descriptions accept
// values its formats would not (`DateSent>` takes `YYYY-MM-DD`), and the SDKs do not check them either.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createTestServer, type RecordedRequest, type ResponseSpec } from '@patchbay/testing';
import { Ajv, type ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { callSmsTool, credentials } from './fixtures/call-sms-tool.js';
import {
  accountResponse,
  accountSid,
  getMessageResponse,
  listMessagesResponse,
  listPhoneNumbersResponse,
  messageSid,
  sendMessageResponse,
} from './fixtures/sms-responses.js';
import { sms } from './sms-connector.js';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: object;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
}
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
}

const documentPath = createRequire(import.meta.url).resolve(
  '@twilio-alpha/mcp/twilio-oai/spec/json/twilio_api_v2010.json',
);
const twilio = JSON.parse(readFileSync(documentPath, 'utf8')) as OpenApi;
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema(twilio, 'twilio');
/** Query and form values travel as text; the schema's numbers and booleans are read from it. */
const ajvFromText = new Ajv({ strict: false, validateFormats: false, allErrors: true, coerceTypes: 'array' });
ajvFromText.addSchema(twilio, 'twilio');

const errorsOf = (errors: ErrorObject[] | null | undefined, where: string) =>
  (errors ?? []).map((error) => `${where}${error.instancePath}: ${error.message}`);

/** What is wrong with `schema` for `value`, with $refs resolved inside Twilio's document. */
function check(validator: Ajv, schema: object, value: unknown, where: string): string[] {
  const validate = validator.compile(schema);
  return validate(value) ? [] : errorsOf(validate.errors, where);
}

/** Twilio's `$ref`s are local to its document: rewrite them to point into the schema added as `twilio`. */
function anchored<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"twilio#/')) as T;
}

interface Described {
  template: string;
  operation: Operation;
  path: Record<string, string>;
}
function describedOperation(call: RecordedRequest): Described | undefined {
  const pathname = decodeURIComponent(new URL(call.url).pathname);
  for (const [template, item] of Object.entries(twilio.paths)) {
    const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)');
    const match = new RegExp(`^${source}$`).exec(pathname);
    const operation = item[call.method.toLowerCase()];
    if (match && operation) return { template, operation, path: { ...match.groups } };
  }
  return undefined;
}

/** The form body as the schema reads it: a repeated field (`MediaUrl`) is a list. */
function formFields(body: unknown, schema: JsonSchema): Record<string, unknown> {
  const form = new URLSearchParams(typeof body === 'string' ? body : '');
  const fields: Record<string, unknown> = {};
  for (const name of new Set(form.keys())) {
    const values = form.getAll(name);
    fields[name] = schema.properties?.[name]?.type === 'array' ? values : values.at(-1);
  }
  return fields;
}

/** Everything Twilio's description says is wrong with `call` and the answer it got; empty when nothing. */
function problemsOf(call: RecordedRequest, answer?: ResponseSpec): string[] {
  const described = describedOperation(call);
  if (!described) return [`${call.method} ${new URL(call.url).pathname} is not in Twilio's description`];
  const { template, operation, path } = described;
  const problems: string[] = [];
  const parameters = operation.parameters ?? [];
  for (const parameter of parameters.filter((candidate) => candidate.in === 'path')) {
    problems.push(
      ...check(ajvFromText, anchored(parameter.schema), path[parameter.name], `path ${parameter.name}`),
    );
  }
  const query = parameters.filter((candidate) => candidate.in === 'query');
  for (const [name, value] of Object.entries(call.searchParams)) {
    const parameter = query.find((candidate) => candidate.name === name);
    if (!parameter) problems.push(`query ${name}: not a parameter of ${call.method} ${template}`);
    else problems.push(...check(ajvFromText, anchored(parameter.schema), value, `query ${name}`));
  }
  for (const parameter of query.filter((candidate) => candidate.required)) {
    if (!(parameter.name in call.searchParams)) problems.push(`query ${parameter.name}: required`);
  }
  const formSchema = operation.requestBody?.content['application/x-www-form-urlencoded']?.schema;
  if (formSchema) {
    if (call.headers['content-type'] !== 'application/x-www-form-urlencoded') {
      problems.push(`body: sent as ${call.headers['content-type']}, described as a form`);
    }
    const closed = { ...anchored(formSchema), additionalProperties: false };
    problems.push(...check(ajvFromText, closed, formFields(call.body, formSchema), 'form'));
  } else if (call.body !== undefined) {
    problems.push(`body: ${call.method} ${template} takes none`);
  }
  if (answer) {
    const status = String(answer.status ?? 200);
    const schema = operation.responses[status]?.content?.['application/json']?.schema;
    if (!schema) problems.push(`answer: ${call.method} ${template} describes no ${status} answer`);
    else problems.push(...check(ajv, anchored(schema), answer.body, `answer ${status}`));
  }
  return problems;
}

const api = `https://api.twilio.com/2010-04-01/Accounts/${accountSid}`;
const answered: { call: RecordedRequest; answer: ResponseSpec }[] = [];
const answering =
  (answer: ResponseSpec) =>
  (call: RecordedRequest): ResponseSpec => {
    answered.push({ call, answer });
    return answer;
  };
createTestServer({
  [`GET ${api}.json`]: answering(accountResponse()),
  [`POST ${api}/Messages.json`]: answering(sendMessageResponse),
  [`GET ${api}/Messages.json`]: answering(listMessagesResponse),
  [`GET ${api}/Messages/:sid.json`]: answering(getMessageResponse),
  [`GET ${api}/IncomingPhoneNumbers.json`]: answering(listPhoneNumbersResponse),
});

function expectDescribed() {
  expect(answered.length).toBeGreaterThan(0);
  for (const { call, answer } of answered.splice(0)) expect(problemsOf(call, answer)).toEqual([]);
}

const toolCalls: [string, Record<string, unknown>][] = [
  ['sms_send', { to: '+14155550123', from: '+14155552345', body: 'Your table is ready' }],
  [
    'sms_send',
    {
      to: '+14155550123',
      messaging_service_sid: 'MG9752274e9e519418a7406176694466fa',
      body: 'Menu attached',
      media_url: 'https://acme.example/menu.jpg',
    },
  ],
  ['sms_get_message', { sid: messageSid }],
  [
    'sms_list_messages',
    {
      to: '+14155550123',
      from: '+14155552345',
      sent_on_or_after: '2026-11-01',
      sent_on_or_before: '2026-11-30',
      limit: 5,
    },
  ],
  ['sms_list_phone_numbers', { contains: '415', limit: 5 }],
];

describe('Twilio requests against Twilio’s OpenAPI description', () => {
  it.each(toolCalls)('%s sends a described request and gets a described answer', async (name, input) => {
    answered.length = 0;
    expect(await callSmsTool(name, input)).toMatchObject({ ok: true });
    expectDescribed();
  });

  it('verify() reads the Account resource as described', async () => {
    answered.length = 0;
    await expect(sms.verify(credentials)).resolves.toMatchObject({ valid: true });
    expectDescribed();
  });

  it('the oracle rejects a misspelt field, a wrong SID, an unknown query parameter and a wrong answer', () => {
    const send = (body: string, account = accountSid): RecordedRequest => ({
      method: 'POST',
      url: `https://api.twilio.com/2010-04-01/Accounts/${account}/Messages.json`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
      searchParams: {},
      params: {},
    });
    const good = 'To=%2B14155550123&From=%2B14155552345&Body=Hi';
    expect(problemsOf(send(good), sendMessageResponse)).toEqual([]);
    expect(problemsOf(send('To=%2B14155550123&Form=%2B14155552345&Body=Hi')).join('\n')).toContain(
      'additional properties',
    );
    expect(problemsOf(send('From=%2B14155552345&Body=Hi')).join('\n')).toContain("'To'");
    expect(problemsOf(send(good, 'XX00000000000000000000000000000000')).join('\n')).toContain(
      'path AccountSid',
    );
    const list = { ...send(''), method: 'GET', body: undefined, headers: {}, searchParams: { Limit: '5' } };
    expect(problemsOf(list).join('\n')).toContain('query Limit');
    const wrongAnswer = { ...sendMessageResponse, body: { sid: messageSid, status: 'sent-ish' } };
    expect(problemsOf(send(good), wrongAnswer).join('\n')).toContain('answer 201/status');
  });
});
