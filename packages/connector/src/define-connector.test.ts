import { PatchbayError, success } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ConnectorDefinition } from './connector.js';
import { connectorManifest, defineConnector } from './define-connector.js';
import { defineTool } from './define-tool.js';

const listIssues = defineTool({
  name: 'demo_list_issues',
  description: 'Lists the open issues of a repository.',
  input: z.object({ repo: z.string().describe('Repository as owner/name') }),
  effect: 'read',
  requiredScopes: ['issues:read'],
  execute: async () => success([]),
});

const createIssue = defineTool({
  name: 'demo_create_issue',
  description: 'Opens an issue in a repository.',
  input: z.object({ title: z.string().describe('Issue title') }),
  effect: 'write',
  requiredScopes: ['issues:write'],
  requires: ['slack'],
  timeoutMs: 5000,
  execute: async () => success({ id: 1 }),
});

const definition: ConnectorDefinition = {
  id: 'demo',
  name: 'Demo',
  description: 'A demonstration issue tracker.',
  auth: {
    kind: 'bearer',
    scopes: [
      { name: 'issues:read', description: 'Read issues' },
      { name: 'issues:write', description: 'Create issues' },
    ],
  },
  capabilities: ['list issues', 'create issues'],
  wouldEnable: ['Track demo issues from chat'],
  setupUrl: 'https://demo.test/connect',
  tools: [listIssues, createIssue],
  verify: async () => ({ valid: true, scopes: ['issues:read'] }),
};

function definitionError(override: Partial<ConnectorDefinition> | Record<string, unknown>): PatchbayError {
  try {
    defineConnector({ ...definition, ...override } as ConnectorDefinition);
  } catch (error) {
    if (PatchbayError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected defineConnector to throw');
}

describe('defineConnector', () => {
  it('validates, fills defaults and stamps v1 and the owning connector on tools', () => {
    const connector = defineConnector(definition);
    expect(connector.specificationVersion).toBe('v1');
    expect(connector.auth.fields).toEqual([{ name: 'token', description: 'Access token', secret: true }]);
    expect(connector.tools.map((tool) => tool.connectorId)).toEqual(['demo', 'demo']);
    expect(Object.isFrozen(connector)).toBe(true);
    expect(Object.isFrozen(connector.tools)).toBe(true);
  });

  it('passes verify results through unchanged', async () => {
    await expect(defineConnector(definition).verify({ token: 't' })).resolves.toEqual({
      valid: true,
      scopes: ['issues:read'],
    });
  });

  it.each<[string, ConnectorDefinition['verify']]>([
    ['rejects', async () => Promise.reject(new Error('Bearer ghp_secretsecretsecretsecret99 refused'))],
    [
      'throws synchronously',
      (() => {
        throw new TypeError('fetch failed');
      }) as unknown as ConnectorDefinition['verify'],
    ],
  ])('a verify that %s resolves to unreachable without the error text', async (_label, verify) => {
    const result = await defineConnector({ ...definition, verify }).verify({ token: 't' });
    expect(result).toEqual({
      valid: false,
      reason: 'unreachable',
      message: 'The service could not be reached.',
    });
  });

  it.each<[string, Partial<ConnectorDefinition> | Record<string, unknown>, RegExp]>([
    ['a bad id', { id: 'Demo-1' }, /connector "Demo-1": id: must be lowercase letters and digits/],
    [
      'a tool not prefixed by the id',
      { id: 'other' },
      /connector "other": tools\.0 \(demo_list_issues\)\.name: must start with "other_"/,
    ],
    [
      'a duplicate tool',
      { tools: [listIssues, listIssues] },
      /tools\.1 \(demo_list_issues\)\.name: duplicate tool name/,
    ],
    [
      'a scope the auth declaration does not list',
      { auth: { kind: 'bearer', scopes: [{ name: 'issues:read', description: 'Read issues' }] } },
      /tools\.1 \(demo_create_issue\)\.requiredScopes: "issues:write" is not declared in auth\.scopes/,
    ],
    [
      'a tool requiring its own connector',
      { id: 'slack', tools: [{ ...createIssue, name: 'slack_create_issue' }], auth: definition.auth },
      /tools\.0 \(slack_create_issue\)\.requires: a tool cannot require its own connector/,
    ],
    ['a missing verify', { verify: undefined }, /connector "demo": verify: must be a function/],
    ['a setup URL that is not a URL', { setupUrl: 'not a url' }, /setupUrl: must be an http\(s\) URL/],
    [
      'a setup URL with a script scheme',
      { setupUrl: 'javascript:alert(1)' },
      /setupUrl: must be an http\(s\) URL/,
    ],
    ['no tools', { tools: [] }, /tools: declare at least one tool/],
    [
      'a tool not made by defineTool',
      { tools: [{ name: 'demo_x' }] },
      /tools\.0: must be created with defineTool/,
    ],
    ['a bad auth kind', { auth: { kind: 'magic' } }, /auth\.kind:/],
    [
      'a duplicate scope',
      {
        auth: {
          kind: 'bearer',
          scopes: [
            { name: 'issues:read', description: 'a' },
            { name: 'issues:read', description: 'b' },
          ],
        },
      },
      /auth\.scopes\.1\.name: duplicate scope "issues:read"/,
    ],
    ['empty capabilities', { capabilities: [] }, /capabilities: declare at least one capability/],
  ])('names the bad field for %s', (_name, override, message) => {
    const error = definitionError(override);
    expect(error.code).toBe('invalid_definition');
    expect(error.message).toMatch(message);
  });

  it('rejects a definition that is not an object', () => {
    expect(() => defineConnector(null as unknown as ConnectorDefinition)).toThrow(
      /\(root\): must be an object/,
    );
  });
});

describe('connectorManifest', () => {
  it('is the serialisable part of the connector', () => {
    const manifest = connectorManifest(defineConnector({ ...definition, docsUrl: 'https://demo.test/docs' }));
    expect(JSON.parse(JSON.stringify(manifest))).toEqual(manifest);
    expect(manifest).toMatchObject({
      specificationVersion: 'v1',
      id: 'demo',
      name: 'Demo',
      setupUrl: 'https://demo.test/connect',
      docsUrl: 'https://demo.test/docs',
      capabilities: ['list issues', 'create issues'],
      wouldEnable: ['Track demo issues from chat'],
      auth: { kind: 'bearer', scopes: [{ name: 'issues:read' }, { name: 'issues:write' }] },
    });
    expect(manifest.tools).toEqual([
      {
        name: 'demo_list_issues',
        description: 'Lists the open issues of a repository.',
        effect: 'read',
        requiredScopes: ['issues:read'],
        requires: [],
        inputJsonSchema: listIssues.inputJsonSchema,
      },
      {
        name: 'demo_create_issue',
        description: 'Opens an issue in a repository.',
        effect: 'write',
        requiredScopes: ['issues:write'],
        requires: ['slack'],
        inputJsonSchema: createIssue.inputJsonSchema,
      },
    ]);
  });

  it('leaves docsUrl out when there is none', () => {
    expect(connectorManifest(defineConnector(definition))).not.toHaveProperty('docsUrl');
  });
});
