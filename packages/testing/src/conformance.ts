import {
  type AnyTool,
  type Connector,
  type ConnectorStatus,
  type Credentials,
  connectorDefinitionSchema,
  connectorManifest,
  toolDefinitionSchema,
  toolEffects,
  undescribedFields,
} from '@patchbay/connector';
import { type Envelope, type ErrorType, envelopeSchema } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { callToolAsSubject } from './call-tool-as-subject.js';
import { canaryCredentials, findSecretLeaks } from './canary.js';
import { defaultCapturedAt, snapshotFor } from './snapshot-for.js';
import { createTestServer, type ResponseSpec } from './test-server.js';

/** The HTTP failures every connector must map, by the name used in options and skip lists. */
export const failureKinds = [
  'unauthorized',
  'forbidden',
  'not_found',
  'rate_limited',
  'server_error',
] as const;
/** One HTTP failure every connector must map. */
export type FailureKind = (typeof failureKinds)[number];

/** Generic failure responses, used unless a connector gives its service's own. */
export const defaultFailureResponses: Readonly<Record<FailureKind, ResponseSpec>> = {
  unauthorized: { status: 401, body: { message: 'Bad credentials' } },
  forbidden: { status: 403, body: { message: 'Resource not accessible by this token' } },
  not_found: { status: 404, body: { message: 'Not Found' } },
  rate_limited: { status: 429, headers: { 'retry-after': '30' }, body: { message: 'Too many requests' } },
  server_error: { status: 500, body: { message: 'Internal Server Error' } },
};

/** The envelope each failure must become. */
export const defaultExpectedErrorTypes: Readonly<Record<FailureKind | 'network_error', ErrorType>> = {
  unauthorized: 'invalid_credentials',
  forbidden: 'permission_denied',
  not_found: 'not_found',
  rate_limited: 'rate_limited',
  server_error: 'upstream_error',
  network_error: 'network_error',
};

/** Fixtures and overrides for {@link describeConnectorConformance}. */
export interface ConformanceOptions {
  /** Valid-looking credentials; the suite appends a canary to every secret field and hunts for it. */
  credentials: Credentials;
  /** A valid input for every tool, by tool name. A tool without one fails the suite. */
  samples: Record<string, unknown>;
  /** Scopes granted when connected; all declared scopes by default. */
  scopes?: string[];
  /** The service's own failure responses (e.g. Slack answers 200 with `{ ok: false, error: 'invalid_auth' }`). */
  failures?: Partial<Record<FailureKind, ResponseSpec>>;
  /** For the rare service whose mapping differs from {@link defaultExpectedErrorTypes}. */
  expectedErrorTypes?: Partial<Record<FailureKind | 'network_error', ErrorType>>;
  /**
   * Tags of tests to skip (reported as skipped, never silently dropped): a tool name, a group
   * (`manifest`, `tools`, `gate`, `http`, `secrets`, `verify`), a status, `missing_scope`, a failure
   * kind or `network_error`.
   */
  skip?: string[];
}

const unavailableStatuses = [
  ['not_configured', 'connector_not_configured'],
  ['invalid_credentials', 'invalid_credentials'],
  ['rate_limited', 'rate_limited'],
  ['disabled_by_admin', 'disabled_by_admin'],
] as const satisfies readonly (readonly [Exclude<ConnectorStatus, 'connected'>, ErrorType])[];

const unconfiguredResponse: ResponseSpec = {
  status: 500,
  body: { message: 'conformance suite: no response configured for this request' },
};

/** Adds the canary to a failure body, as services that echo the request back would. */
function echoing(spec: ResponseSpec, canary: string): ResponseSpec {
  const echo = `Rejected credential ${canary}`;
  if (spec.body !== null && typeof spec.body === 'object' && !Array.isArray(spec.body)) {
    const body = spec.body as Record<string, unknown>;
    return {
      ...spec,
      body: { ...body, message: typeof body.message === 'string' ? `${echo}: ${body.message}` : echo },
    };
  }
  if (spec.body === undefined)
    return { ...spec, text: spec.text === undefined ? echo : `${echo}: ${spec.text}` };
  return spec;
}

/** Asserts an empty list of problems, naming each one in the failure message (a bare diff truncates). */
function expectNone(problems: readonly string[], what: string): void {
  expect(problems, `${what}:\n  ${problems.join('\n  ')}`).toEqual([]);
}

function describeStatus(spec: ResponseSpec): string {
  return `HTTP ${spec.status ?? 200}`;
}

/**
 * Registers the conformance suite for one connector (after mastra's shared store tests): manifest,
 * described tool schemas, the availability gate sending no request, HTTP and network failures
 * mapping to the right envelope, no credential in any envelope, and `verify`. Call it at the top
 * level of a test file of its own; it starts its own msw server.
 */
export function describeConnectorConformance(connector: Connector, options: ConformanceOptions): void {
  const skip = new Set(options.skip ?? []);
  const failures = { ...defaultFailureResponses, ...options.failures };
  const expected = { ...defaultExpectedErrorTypes, ...options.expectedErrorTypes };
  const declaredScopes = connector.auth.scopes.map((scope) => scope.name);
  const credentials = canaryCredentials(connector, options.credentials);
  const secretFields = connector.auth.fields.filter((field) => field.secret).map((field) => field.name);
  const secrets = secretFields.map((name) => credentials[name]!).filter(Boolean);
  const connected = snapshotFor(connector, 'connected', { scopes: options.scopes ?? declaredScopes });
  const produced: { label: string; value: unknown }[] = [];
  // Connectors without secrets (auth kind `none`) have nothing to reject or leak.
  if (connector.auth.kind === 'none' || secrets.length === 0) skip.add('needs_credentials');

  const test = (name: string, tags: string[], body: () => Promise<void> | void) =>
    (tags.some((tag) => skip.has(tag)) ? it.skip : it)(name, body);

  describe(`connector conformance: ${connector.id}`, () => {
    const server = createTestServer({ '*': unconfiguredResponse });

    const call = async (label: string, tool: AnyTool, snapshot = connected): Promise<Envelope> => {
      const envelope = await callToolAsSubject(tool, options.samples[tool.name], {
        snapshot,
        credentials,
        setupUrl: connector.setupUrl,
        now: defaultCapturedAt,
      });
      produced.push({ label, value: envelope });
      expect(
        envelopeSchema.safeParse(envelope).success,
        `${label}: result is not a well-formed envelope`,
      ).toBe(true);
      return envelope;
    };

    describe('manifest', () => {
      test('is a v1 connector whose definition validates', ['manifest'], () => {
        expect(connector.specificationVersion).toBe('v1');
        const parsed = connectorDefinitionSchema.safeParse(connector);
        const issues = parsed.success
          ? []
          : parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
        expectNone(issues, 'the definition does not validate');
      });

      test('prefixes every tool with the connector id and names each once', ['manifest'], () => {
        const names = connector.tools.map((tool) => tool.name);
        expectNone(
          names.filter((name) => !name.startsWith(`${connector.id}_`)),
          `tools not prefixed with "${connector.id}_"`,
        );
        expectNone(
          connector.tools.filter((tool) => tool.connectorId !== connector.id).map((tool) => tool.name),
          'tools not bound to this connector (not passed through defineConnector)',
        );
        expect(new Set(names).size).toBe(names.length);
      });

      test('declares every scope its tools require', ['manifest'], () => {
        const undeclared = connector.tools.flatMap((tool) =>
          tool.requiredScopes
            .filter((scope) => !declaredScopes.includes(scope))
            .map((scope) => `${tool.name}: ${scope}`),
        );
        expectNone(undeclared, 'required scopes missing from auth.scopes');
      });

      test('has a JSON-serialisable manifest', ['manifest'], () => {
        const manifest = connectorManifest(connector);
        expect(JSON.parse(JSON.stringify(manifest))).toEqual(manifest);
      });
    });

    describe('tools', () => {
      for (const tool of connector.tools) {
        test(`${tool.name}: describes every input field`, ['tools', tool.name], () => {
          expect(tool.inputJsonSchema.type).toBe('object');
          expectNone(undescribedFields(tool.inputJsonSchema), 'input fields without a description');
        });

        test(`${tool.name}: has a valid definition and effect`, ['tools', tool.name], () => {
          const parsed = toolDefinitionSchema.safeParse(tool);
          expectNone(
            parsed.success
              ? []
              : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`),
            'the tool definition does not validate',
          );
          expect(toolEffects).toContain(tool.effect);
        });

        test(`${tool.name}: has a sample input that validates`, ['tools', tool.name], () => {
          expect(Object.hasOwn(options.samples, tool.name), `no sample input for ${tool.name}`).toBe(true);
          const parsed = tool.input.safeParse(options.samples[tool.name]);
          expectNone(
            parsed.success
              ? []
              : parsed.error.issues.map(
                  (issue: { path: PropertyKey[]; message: string }) =>
                    `${issue.path.map(String).join('.') || '(input)'}: ${issue.message}`,
                ),
            'the sample input does not validate',
          );
        });
      }
    });

    describe('availability gate', () => {
      for (const [status, errorType] of unavailableStatuses) {
        for (const tool of connector.tools) {
          test(
            `${tool.name} when ${status}: returns ${errorType} and sends no request`,
            ['gate', status, tool.name],
            async () => {
              const envelope = await call(
                `${tool.name} when ${status}`,
                tool,
                snapshotFor(connector, status),
              );
              expect(envelope).toMatchObject({ ok: false, error_type: errorType });
              if (status === 'rate_limited') expect(envelope).toMatchObject({ retry_after_s: 60 });
              if (status === 'not_configured' || status === 'invalid_credentials') {
                expect(envelope).toMatchObject({ connector: connector.id, setup_url: connector.setupUrl });
              }
              expectNone(
                server.calls.map((request) => `${request.method} ${request.url}`),
                'requests sent although the tool is unavailable',
              );
            },
          );
        }
      }
      for (const tool of connector.tools.filter((candidate) => candidate.requiredScopes.length > 0)) {
        test(
          `${tool.name} without its scopes: returns permission_denied and sends no request`,
          ['gate', 'missing_scope', tool.name],
          async () => {
            // Every other declared scope, except those implying a required one (`repo` → `public_repo`).
            const granted = declaredScopes.filter(
              (scope) =>
                !tool.requiredScopes.includes(scope) &&
                !(tool.impliedScopes?.[scope] ?? []).some((implied) => tool.requiredScopes.includes(implied)),
            );
            const envelope = await call(
              `${tool.name} without scopes`,
              tool,
              snapshotFor(connector, 'connected', { scopes: granted }),
            );
            expect(envelope).toMatchObject({
              ok: false,
              error_type: 'permission_denied',
              missing_scopes: tool.requiredScopes,
            });
            expectNone(
              server.calls.map((request) => `${request.method} ${request.url}`),
              'requests sent although the tool is unavailable',
            );
          },
        );
      }
    });

    describe('HTTP failures', () => {
      for (const kind of failureKinds) {
        const spec = failures[kind];
        for (const tool of connector.tools) {
          const tags = ['http', kind, tool.name, ...(kind === 'unauthorized' ? ['needs_credentials'] : [])];
          test(
            `${tool.name}: ${kind} (${describeStatus(spec)}) maps to ${expected[kind]}`,
            tags,
            async () => {
              server.use({ '*': spec });
              const envelope = await call(`${tool.name} on ${kind}`, tool);
              expect(
                server.calls.length,
                `${tool.name} sent no request with its sample input`,
              ).toBeGreaterThan(0);
              expect(envelope).toMatchObject({
                ok: false,
                error_type: expected[kind],
                connector: connector.id,
              });
              if (expected[kind] === 'rate_limited') {
                expect(envelope).toHaveProperty('retry_after_s');
                if (spec === defaultFailureResponses.rate_limited)
                  expect(envelope).toMatchObject({ retry_after_s: 30 });
              }
            },
          );
        }
      }
      for (const tool of connector.tools) {
        test(
          `${tool.name}: a network failure maps to ${expected.network_error}`,
          ['http', 'network_error', tool.name],
          async () => {
            server.use({ '*': () => Response.error() });
            const envelope = await call(`${tool.name} on network failure`, tool);
            expect(server.calls.length, `${tool.name} sent no request with its sample input`).toBeGreaterThan(
              0,
            );
            expect(envelope).toMatchObject({
              ok: false,
              error_type: expected.network_error,
              connector: connector.id,
            });
            // The service may have seen the request: only a read is worth simply sending again.
            if (expected.network_error === 'network_error') {
              expect(
                envelope.ok === false && envelope.retryable,
                `${tool.name} (${tool.effect}): a network failure after the request left is retryable only for a read`,
              ).toBe(tool.effect === 'read');
            }
          },
        );
      }
    });

    describe('secrets', () => {
      const echoedSecrets = secrets.join(' ');
      for (const tool of connector.tools) {
        test(
          `${tool.name}: keeps credentials out of envelopes, even when responses echo them`,
          ['secrets', tool.name, 'needs_credentials'],
          async () => {
            const responses: [string, ResponseSpec][] = [
              ['a 2xx response', { status: 200, body: {} }],
              ...failureKinds.map((kind): [string, ResponseSpec] => [
                `${kind} echoing the credential`,
                echoing(failures[kind], echoedSecrets),
              ]),
            ];
            const leaks: string[] = [];
            for (const [label, spec] of responses) {
              server.use({ '*': spec });
              const envelope = await call(`${tool.name} on ${label}`, tool);
              leaks.push(...findSecretLeaks(envelope, secrets).map((leak) => `${label}: envelope.${leak}`));
            }
            expectNone(leaks, 'credentials found in envelopes');
          },
        );
      }

      test(
        'no envelope or verify result produced by this suite contains a credential',
        ['secrets', 'needs_credentials'],
        () => {
          expect(produced.length).toBeGreaterThan(0);
          const leaks = produced.flatMap(({ label, value }) =>
            findSecretLeaks(value, secrets).map((leak) => `${label}: ${leak}`),
          );
          expectNone(leaks, 'credentials found');
        },
      );
    });

    describe('verify', () => {
      test(
        `reports invalid_credentials on unauthorized (${describeStatus(failures.unauthorized)})`,
        ['verify', 'unauthorized', 'needs_credentials'],
        async () => {
          server.use({ '*': failures.unauthorized });
          const result = await connector.verify(credentials);
          produced.push({ label: 'verify on unauthorized', value: result });
          expect(result).toMatchObject({ valid: false, reason: 'invalid_credentials' });
          expectNone(findSecretLeaks(result, secrets), 'credentials found in the verify result');
        },
      );

      test(
        'reports unreachable on a network failure without throwing',
        ['verify', 'network_error'],
        async () => {
          server.use({ '*': () => Response.error() });
          let result: unknown;
          try {
            result = await connector.verify(credentials);
          } catch (error) {
            expect.fail(
              `verify threw on a network failure: ${error instanceof Error ? error.name : typeof error}`,
            );
          }
          produced.push({ label: 'verify on network failure', value: result });
          expect(result).toMatchObject({ valid: false, reason: 'unreachable' });
          expectNone(findSecretLeaks(result, secrets), 'credentials found in the verify result');
        },
      );
    });
  });
}
