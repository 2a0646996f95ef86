// Linear's GraphQL schema as the oracle for every request this connector sends. @linear/sdk (a dev
// dependency) ships no schema file; its generated TypeScript types are the schema written out by
// graphql-codegen's typescript plugin: one type per GraphQL type (`Issue = Node & { __typename?:
// "Issue"; ... }`), `Maybe<T>`/`InputMaybe<T>` for nullable, `Array<T>` for lists, `Scalars["X"]`
// for scalars, `<Type><Field>Args` for a field's arguments, and `enum`s. The test reads those
// declarations with the TypeScript compiler and builds a graphql-js schema from them, then:
// - validates each request's document with graphql's `validate` (fields, arguments, variable types);
// - coerces its variables against the document's variable definitions (unknown or misspelt input
//   fields, wrong scalar types);
// - executes the document on the fixture answer for it: the result must equal the fixture (every
//   fixture field is selected, every value has the schema's type, no non-null field is missing).
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { callConnectorTool, createTestServer, type RecordedRequest } from '@patchbay/testing';
import {
  type DocumentNode,
  execute,
  GraphQLBoolean,
  GraphQLEnumType,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  GraphQLFloat,
  GraphQLID,
  type GraphQLInputFieldConfigMap,
  GraphQLInputObjectType,
  type GraphQLInputType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLNullableType,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  type GraphQLType,
  GraphQLUnionType,
  getNullableType,
  parse,
  validate,
} from 'graphql';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { answerByOperation, operationOf, viewer } from './fixtures/linear-responses.js';
import { linear } from './linear-connector.js';

/** The declarations of @linear/sdk's generated schema types, by name. */
function sdkDeclarations() {
  const dist = join(dirname(createRequire(import.meta.url).resolve('@linear/sdk/package.json')), 'dist');
  const aliases = new Map<string, ts.TypeNode>();
  const enums = new Map<string, string[]>();
  for (const file of readdirSync(dist).filter((name) => name.endsWith('.d.mts'))) {
    const text = readFileSync(join(dist, file), 'utf8');
    if (!text.includes('\ntype Query = {')) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
    for (const statement of source.statements) {
      if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement.type);
      if (ts.isEnumDeclaration(statement)) {
        enums.set(
          statement.name.text,
          statement.members.map((member) =>
            member.initializer && ts.isStringLiteral(member.initializer)
              ? member.initializer.text
              : member.name.getText(source),
          ),
        );
      }
    }
  }
  if (!aliases.has('Query') || !aliases.has('Mutation')) throw new Error('@linear/sdk has no Query type');
  return { aliases, enums };
}

/** Builds the GraphQL schema @linear/sdk's types describe. */
function buildLinearSchema(): GraphQLSchema {
  const { aliases, enums } = sdkDeclarations();
  const builtIn: Record<string, GraphQLScalarType> = {
    ID: GraphQLID,
    String: GraphQLString,
    Boolean: GraphQLBoolean,
    Int: GraphQLInt,
    Float: GraphQLFloat,
  };
  const named = new Map<string, GraphQLNullableType>();
  const remember = <T extends GraphQLNullableType>(name: string, type: T): T => {
    named.set(name, type);
    return type;
  };

  const properties = (node: ts.TypeNode): ts.PropertySignature[] => {
    if (ts.isTypeLiteralNode(node)) return node.members.filter(ts.isPropertySignature);
    if (ts.isIntersectionTypeNode(node)) return node.types.flatMap(properties);
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
      const target = aliases.get(node.typeName.text);
      return target ? properties(target) : [];
    }
    return [];
  };
  const fieldsOf = (name: string) =>
    properties(aliases.get(name) as ts.TypeNode).filter(
      (property) => ts.isIdentifier(property.name) && property.name.text !== '__typename',
    );
  const nameOf = (property: ts.PropertySignature) => (property.name as ts.Identifier).text;

  const scalar = (name: string) =>
    builtIn[name] ??
    (named.get(name) as GraphQLScalarType) ??
    remember(name, new GraphQLScalarType({ name }));

  function namedType(name: string, input: boolean): GraphQLNullableType {
    const known = named.get(name);
    if (known) return known;
    const values = enums.get(name);
    if (values) {
      return remember(
        name,
        new GraphQLEnumType({ name, values: Object.fromEntries(values.map((value) => [value, { value }])) }),
      );
    }
    const node = aliases.get(name);
    if (!node) throw new Error(`@linear/sdk declares no type ${name}`);
    if (input) {
      return remember(
        name,
        new GraphQLInputObjectType({
          name,
          fields: () =>
            Object.fromEntries(
              fieldsOf(name).map((property) => [
                nameOf(property),
                { type: typeOf(property.type as ts.TypeNode, true) as GraphQLInputType },
              ]),
            ) as GraphQLInputFieldConfigMap,
        }),
      );
    }
    if (ts.isUnionTypeNode(node) && node.types.every(ts.isTypeReferenceNode)) {
      return remember(
        name,
        new GraphQLUnionType({
          name,
          types: () =>
            node.types.map((member) =>
              namedType(((member as ts.TypeReferenceNode).typeName as ts.Identifier).text, false),
            ) as GraphQLObjectType[],
        }),
      );
    }
    return remember(
      name,
      new GraphQLObjectType({
        name,
        fields: () =>
          Object.fromEntries(
            fieldsOf(name).map((property) => {
              const field = nameOf(property);
              const argsName = `${name}${field.charAt(0).toUpperCase()}${field.slice(1)}Args`;
              const args = aliases.has(argsName)
                ? (Object.fromEntries(
                    fieldsOf(argsName).map((arg) => [
                      nameOf(arg),
                      { type: typeOf(arg.type as ts.TypeNode, true) as GraphQLInputType },
                    ]),
                  ) as GraphQLFieldConfigArgumentMap)
                : undefined;
              return [
                field,
                { type: typeOf(property.type as ts.TypeNode, false) as GraphQLOutputType, args },
              ];
            }),
          ) as GraphQLFieldConfigMap<unknown, unknown>,
      }),
    );
  }

  /** `Maybe<T>` is nullable, anything else non-null; `Array<T>` a list; `Scalars["X"]` a scalar. */
  function typeOf(node: ts.TypeNode, input: boolean): GraphQLType {
    if (ts.isParenthesizedTypeNode(node)) return typeOf(node.type, input);
    if (ts.isArrayTypeNode(node)) return new GraphQLNonNull(new GraphQLList(typeOf(node.elementType, input)));
    if (
      ts.isIndexedAccessTypeNode(node) &&
      ts.isLiteralTypeNode(node.indexType) &&
      ts.isStringLiteral(node.indexType.literal)
    ) {
      return new GraphQLNonNull(scalar(node.indexType.literal.text));
    }
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
      const [argument] = node.typeArguments ?? [];
      switch (node.typeName.text) {
        case 'Maybe':
        case 'InputMaybe':
          return getNullableType(typeOf(argument as ts.TypeNode, input));
        case 'Array':
          return new GraphQLNonNull(new GraphQLList(typeOf(argument as ts.TypeNode, input)));
        default:
          return new GraphQLNonNull(namedType(node.typeName.text, input));
      }
    }
    throw new Error(`cannot read the type ${ts.SyntaxKind[node.kind]} from @linear/sdk`);
  }

  return new GraphQLSchema({
    query: namedType('Query', false) as GraphQLObjectType,
    mutation: namedType('Mutation', false) as GraphQLObjectType,
    // The generated types carry no interface declarations; the structure is checked by use instead.
    assumeValid: true,
  });
}

const schema = buildLinearSchema();

interface GraphqlRequest {
  query: string;
  variables?: Record<string, unknown>;
}

/** What Linear's schema says is wrong with `request` and the `data` answered to it; empty when nothing. */
async function problemsOf(request: GraphqlRequest, data?: unknown): Promise<string[]> {
  let document: DocumentNode;
  try {
    document = parse(request.query);
  } catch (error) {
    return [`syntax: ${(error as Error).message}`];
  }
  const invalid = validate(schema, document);
  if (invalid.length) return invalid.map((error) => `document: ${error.message}`);
  const result = await execute({
    schema,
    document,
    variableValues: request.variables ?? {},
    rootValue: data ?? {},
  });
  // An error without a path is the request's own (its variables); one with a path is the answer's.
  const problems = (result.errors ?? [])
    .filter((error) => data !== undefined || error.path === undefined)
    .map((error) => `${error.path ? 'answer' : 'variables'}: ${error.message}`);
  if (data !== undefined && !result.errors) {
    const produced = JSON.parse(JSON.stringify(result.data)) as unknown;
    if (!isDeepStrictEqual(produced, data)) {
      problems.push(
        `answer: the fixture is not what the query selects: ${JSON.stringify(data)} vs ${JSON.stringify(produced)}`,
      );
    }
  }
  return problems;
}

const answered: { request: GraphqlRequest; data: unknown }[] = [];
createTestServer({
  'POST https://api.linear.app/graphql': (call: RecordedRequest) => {
    const answer = operationOf(call) === 'PatchbayViewer' ? { body: viewer } : answerByOperation(call);
    answered.push({ request: call.body as GraphqlRequest, data: (answer.body as { data?: unknown })?.data });
    return answer;
  },
});

async function expectDescribed() {
  expect(answered.length).toBeGreaterThan(0);
  for (const { request, data } of answered.splice(0)) {
    expect(Object.keys(request).filter((key) => key !== 'query' && key !== 'variables')).toEqual([]);
    expect(await problemsOf(request, data)).toEqual([]);
  }
}

const credentials = { api_key: 'lin_api_test0000000000000000000000' };
const toolCalls: [string, Record<string, unknown>][] = [
  ['linear_search_issues', { query: 'login', max_results: 2, cursor: 'YXJyYXljb25uZWN0aW9uOjE=' }],
  ['linear_get_issue', { issue_id: 'ENG-123' }],
  ['linear_list_teams', { max_results: 5 }],
  ['linear_create_issue', { team: 'ENG', title: 'Login page times out', description: 'Steps', priority: 2 }],
  ['linear_comment_on_issue', { issue_id: 'ENG-123', body: 'Reproduced.' }],
  ['linear_update_issue_state', { issue_id: 'ENG-123', state: 'Done' }],
];

describe('Linear requests against the GraphQL schema in @linear/sdk’s types', () => {
  it.each(toolCalls)(
    '%s sends valid documents and variables, and its fixtures fit the schema',
    async (name, input) => {
      answered.length = 0;
      expect(await callConnectorTool(linear, name, input, { credentials })).toMatchObject({ ok: true });
      await expectDescribed();
    },
  );

  it('verify() sends a valid document, and its fixture fits the schema', async () => {
    answered.length = 0;
    await expect(linear.verify(credentials)).resolves.toMatchObject({ valid: true });
    await expectDescribed();
  });

  it('the oracle rejects a misspelt field, a misspelt input field, a wrong variable type and wrong answers', async () => {
    const comment = 'mutation C($input: CommentCreateInput!) { commentCreate(input: $input) { success } }';
    expect(await problemsOf({ query: comment, variables: { input: { issueId: 'x', body: 'Hi' } } })).toEqual(
      [],
    );
    expect((await problemsOf({ query: 'query { issue(id: "x") { identifer } }' })).join('\n')).toContain(
      'Cannot query field "identifer" on type "Issue"',
    );
    expect(
      (await problemsOf({ query: comment, variables: { input: { issueId: 'x', bodyy: 'Hi' } } })).join('\n'),
    ).toContain('bodyy');
    expect(
      (await problemsOf({ query: 'query T($first: String) { teams(first: $first) { nodes { id } } }' })).join(
        '\n',
      ),
    ).toContain('Variable "$first" of type "String" used in position expecting type "Int"');
    expect(
      (
        await problemsOf(
          { query: 'query { issue(id: "x") { id priority } }' },
          { issue: { id: 'x', priority: 'High' } },
        )
      ).join('\n'),
    ).toContain('Float');
    const issueQuery = { query: 'query { issue(id: "x") { id identifier } }' };
    expect(await problemsOf(issueQuery, { issue: { id: 'x', identifier: 'ENG-1' } })).toEqual([]);
    expect((await problemsOf(issueQuery, { issue: { id: 'x' } })).join('\n')).toContain(
      'Cannot return null for non-nullable field Issue.identifier',
    );
    expect(
      (await problemsOf(issueQuery, { issue: { id: 'x', identifier: 'ENG-1', title: 'T' } })).join('\n'),
    ).toContain('not what the query selects');
  });
});
