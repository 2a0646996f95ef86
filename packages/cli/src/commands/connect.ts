import type { Connector, Credentials, VerifyResult } from '@patchbay/connector';
import { redactString } from '@patchbay/envelope';
import { displayIdentity, secretCredentialValues } from '@patchbay/helpers';
import { usageError } from '../cli-error.js';
import type { Command, CommandValues } from '../command.js';
import { exitCodes } from '../exit-codes.js';
import { promptHidden, promptVisible } from '../prompt-secret.js';
import type { CliRuntime } from '../runtime.js';
import { connectMcpServer, findMcpServer } from './connect-mcp.js';

const verifyTimeoutMs = 15_000;

const variableNamePattern = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * How an error names a variable the user gave: conventional upper-case names are shown; anything
 * else may be the token itself pasted in place of its name, so it is never repeated.
 */
function describeVariable(variable: string, flag: string): string {
  return /^[A-Z_][A-Z0-9_]*$/.test(variable)
    ? `The environment variable ${variable}`
    : `The environment variable named by ${flag}`;
}

/**
 * What a prompt asks for: the field's description, preceded by the connector's name unless the
 * description already says it ("GitHub personal access token", not "GitHub GitHub personal…").
 */
export function promptLabel(connector: Pick<Connector, 'name'>, field: { description: string }): string {
  const named = connector.name
    .split(/[^A-Za-z0-9]+/)
    .some((word) => word.length > 1 && new RegExp(`\\b${word}\\b`, 'i').test(field.description));
  return named ? field.description : `${connector.name}: ${field.description}`;
}

/** Parses `--field name=ENVVAR` flags into field name → environment variable name. */
function fieldFlags(values: CommandValues): Map<string, string> {
  const map = new Map<string, string>();
  for (const flag of (values.field as string[] | undefined) ?? []) {
    const separator = flag.indexOf('=');
    const name = separator === -1 ? '' : flag.slice(0, separator);
    const variable = separator === -1 ? flag : flag.slice(separator + 1);
    if (!/^[a-z][a-z0-9_]*$/.test(name) || !variableNamePattern.test(variable)) {
      // The part after "=" may be a pasted credential: never echo it.
      throw usageError(
        `--field expects name=ENVVAR (an environment variable name, never the value)${
          /^[a-z][a-z0-9_]*$/.test(name) ? `; the value given for ${name} is not a variable name` : ''
        }.`,
      );
    }
    map.set(name, variable);
  }
  return map;
}

/**
 * Whether a credential field may be left out. Read defensively: `Connector['auth']['fields']` does not
 * declare `optional` yet, though `defineConnector` keeps it.
 */
function isOptional(field: Connector['auth']['fields'][number]): boolean {
  return (field as { optional?: unknown }).optional === true;
}

/**
 * Collects every credential field: `--field name=ENV`, `--token-env VAR` for the token (or the
 * only secret field), the field's conventional env variable, else a prompt on the terminal
 * (hidden for secrets). Optional fields are taken when given and skipped otherwise. Values are taken
 * from the environment by name so they never sit in argv.
 */
async function collectCredentials(
  connector: Connector,
  values: CommandValues,
  runtime: CliRuntime,
): Promise<Credentials> {
  const { env } = runtime.settings;
  const fields = connector.auth.fields;
  const fromFlags = fieldFlags(values);
  for (const name of fromFlags.keys()) {
    if (!fields.some((field) => field.name === name)) {
      throw usageError(
        `${connector.id} has no credential field "${name}". Fields: ${fields.map((field) => field.name).join(', ') || 'none'}.`,
      );
    }
  }
  const tokenEnv = values['token-env'] as string | undefined;
  let tokenEnvField: string | undefined;
  if (tokenEnv !== undefined && !variableNamePattern.test(tokenEnv)) {
    // Most likely the token itself in place of its variable's name: refuse without repeating it.
    throw usageError('--token-env expects the name of an environment variable, never the token itself.');
  }
  if (tokenEnv !== undefined) {
    const secretFields = fields.filter((field) => field.secret);
    const target =
      fields.find((field) => field.name === 'token') ??
      (secretFields.length === 1 ? secretFields[0] : undefined);
    if (!target) {
      throw usageError(
        `${connector.id} needs several credential fields; pass each with --field name=ENVVAR (${fields.map((field) => field.name).join(', ')}).`,
      );
    }
    if (!fromFlags.has(target.name)) {
      fromFlags.set(target.name, tokenEnv);
      tokenEnvField = target.name;
    }
  }
  const credentials: Record<string, string> = {};
  const missing: string[] = [];
  for (const field of fields) {
    const variable = fromFlags.get(field.name) ?? field.env;
    const value = variable ? env[variable] : undefined;
    if (variable && fromFlags.has(field.name) && (value === undefined || value === '')) {
      const flag = field.name === tokenEnvField ? '--token-env' : `--field ${field.name}`;
      throw usageError(`${describeVariable(variable, flag)} (for ${field.name}) is not set.`);
    }
    if (value !== undefined && value !== '') {
      credentials[field.name] = value;
      continue;
    }
    // Connecting works without it: not demanded, not prompted for, and nothing stored in its place.
    if (isOptional(field)) continue;
    if (runtime.streams.stdin.isTTY) {
      const question = `${promptLabel(connector, field)} (${field.name}): `;
      // Only a field declared `secret: false` is echoed while typed (an undeclared one counts as secret).
      const answer =
        field.secret !== false
          ? await promptHidden(question, runtime.streams)
          : await promptVisible(question, runtime.streams);
      if (answer.trim() === '') throw usageError(`No value given for ${field.name}.`);
      credentials[field.name] = answer.trim();
      continue;
    }
    missing.push(field.name);
  }
  if (missing.length > 0) {
    const hint =
      missing.length === 1 && fields.filter((field) => !isOptional(field)).length === 1
        ? '--token-env VAR'
        : missing.map((name) => `--field ${name}=ENVVAR`).join(' ');
    throw usageError(
      `Missing credentials for ${connector.id}: ${missing.join(', ')}. Pass ${hint}, or run in a terminal to be prompted.`,
    );
  }
  return credentials;
}

/** What {@link verifyAndStore} came to; never carries a credential value. */
export type VerifyOutcome =
  | { valid: true; scopes: string[]; identity: string | undefined }
  | {
      valid: false;
      result: Extract<VerifyResult, { valid: false }>;
      /** The connector's message with every secret credential value redacted. */
      message: string;
      /** True when verify threw: a fault in the connector, not in the credentials. */
      connectorFailed: boolean;
    };

/**
 * Verifies credentials with the service through the connector's `verify` and, when it accepts them,
 * stores them encrypted (bound to the connector's origin); a refusal is recorded as the status it
 * means (invalid credentials, a rate limit). Audited either way. What `patchbay connect` and the
 * console both do.
 */
export async function verifyAndStore(
  runtime: CliRuntime,
  connector: Connector,
  credentials: Credentials,
  subject: string,
): Promise<VerifyOutcome> {
  // Fields declared `secret: false` (a region, an account SID) stay readable, as everywhere else.
  const secretFields = connector.auth.fields
    .filter((field) => field.secret !== false)
    .map((field) => field.name);
  const secrets = secretCredentialValues(credentials, secretFields);
  for (const value of secrets) runtime.addSecret(value);
  let result: VerifyResult;
  let connectorFailed = false;
  try {
    result = await connector.verify(credentials, { signal: AbortSignal.timeout(verifyTimeoutMs) });
  } catch {
    // A verify that throws (sync or async) broke the contract; its message may carry the token.
    connectorFailed = true;
    result = { valid: false, reason: 'unreachable', message: 'Verification failed inside the connector.' };
  }
  const store = runtime.store();
  if (result.valid) {
    // Display-only: an identity that echoes a credential is neither stored nor printed.
    const identity = displayIdentity(result.identity, credentials, secretFields);
    await store.saveConnection(subject, {
      connectorId: connector.id,
      credentials,
      scopes: result.scopes,
      identity,
      secretFields,
      // The credentials are bound to where they were verified: another baseUrl will not get them.
      verifiedOrigin: connector.origin,
    });
    await store.audit.append({
      event: 'connector_connected',
      subject,
      connector: connector.id,
      scopes: result.scopes,
    });
    return { valid: true, scopes: result.scopes, identity };
  }
  const message = redactString(result.message, secrets);
  if (result.reason === 'invalid_credentials') {
    await store.recordFailedVerification(subject, connector.id, message);
  } else if (result.reason === 'rate_limited' && result.retryAfterS !== undefined) {
    await store.markRateLimited(
      subject,
      connector.id,
      new Date(Date.now() + result.retryAfterS * 1000).toISOString(),
    );
  }
  await store.audit.append({
    event: 'connector_refused',
    subject,
    connector: connector.id,
    reason: result.reason,
    message,
  });
  return { valid: false, result, message, connectorFailed };
}

/**
 * Forgets a subject's stored connection and audits it. Returns false when there was none.
 */
export async function removeConnection(runtime: CliRuntime, subject: string, id: string): Promise<boolean> {
  const store = runtime.store();
  const stored = (await store.listConnections(subject)).some((connection) => connection.connectorId === id);
  const removed = stored && (await store.deleteConnection(subject, id));
  if (removed) await store.audit.append({ event: 'connector_disconnected', subject, connector: id });
  return removed;
}

/** `patchbay connect <id>`: verify credentials with the service and store them encrypted. */
export const connectCommand: Command = {
  name: 'connect',
  usage: '<id|server> [--token-env VAR] [--field name=ENVVAR ...] [--open] [--timeout S] [--mcp-config FILE]',
  summary:
    'Verify credentials for a connector, or sign in to a remote MCP server (OAuth); store them (encrypted)',
  examples: [
    'GITHUB_TOKEN=ghp_… patchbay connect github --token-env GITHUB_TOKEN',
    'patchbay connect sms --field account_sid=TWILIO_ACCOUNT_SID --field auth_token=TWILIO_AUTH_TOKEN',
    'patchbay connect github   # prompts for the token without echoing it',
    'patchbay connect notes --open   # an MCP server from mcp-servers.json: OAuth sign-in in the browser',
  ],
  options: {
    'token-env': { type: 'string' },
    field: { type: 'string', multiple: true },
    open: { type: 'boolean' },
    timeout: { type: 'string' },
    'mcp-config': { type: 'string' },
  },
  positionals: { required: ['id'] },
  async run(runtime, values, [id]) {
    // A connector keeps its id; an MCP server of that name is left out of the status block anyway.
    const installed = (await runtime.connectors()).some((connector) => connector.id === id);
    if (!installed) {
      const server = await findMcpServer(runtime, id!, values['mcp-config'] as string | undefined);
      if (server) return connectMcpServer(runtime, server, values);
    }
    const connector = await runtime.connector(id!);
    const credentials = await collectCredentials(connector, values, runtime);
    const outcome = await verifyAndStore(runtime, connector, credentials, runtime.settings.subject);
    if (outcome.valid) {
      const { scopes, identity } = outcome;
      if (runtime.settings.json) {
        runtime.printJson({ connector: connector.id, status: 'connected', scopes, identity });
      } else {
        runtime.print(
          `Connected ${connector.name}${identity ? ` as ${identity}` : ''} for ${runtime.settings.subject}. ` +
            `Granted scopes: ${scopes.length ? scopes.join(', ') : 'none'}.`,
        );
      }
      return exitCodes.ok;
    }
    const { result, message, connectorFailed } = outcome;
    // The connector's message says what happened; add only what it cannot know: what we recorded
    // and what to do next. An unreachable service refused nothing: exit 1, not 3.
    const refused = result.reason !== 'unreachable';
    if (runtime.settings.json) {
      runtime.printJson({
        connector: connector.id,
        status: refused ? 'refused' : 'unreachable',
        reason: result.reason,
        message,
      });
    } else {
      const sentence = /[.!?]$/.test(message.trim()) ? message.trim() : `${message.trim()}.`;
      const next =
        result.reason === 'invalid_credentials'
          ? `Recorded as invalid_credentials; check the credentials and run "patchbay connect ${connector.id}" again.`
          : result.reason === 'rate_limited'
            ? `Try again ${result.retryAfterS !== undefined ? `in ${result.retryAfterS} s` : 'later'}.`
            : connectorFailed
              ? 'Nothing was stored; this is a fault in the connector, not in the credentials.'
              : 'Nothing was stored; check the network or the service address and try again.';
      runtime.note(`Not connected to ${connector.name}: ${sentence} ${next}`);
    }
    return refused ? exitCodes.verificationRefused : exitCodes.error;
  },
};

/** `patchbay disconnect <id>`: forget the stored connection. */
export const disconnectCommand: Command = {
  name: 'disconnect',
  usage: '<id|server> [--mcp-config FILE]',
  summary: 'Delete the stored connection of a connector, or the sign-in to an MCP server',
  examples: [
    'patchbay disconnect github',
    'patchbay disconnect slack --user alice',
    'patchbay disconnect notes   # forgets the OAuth tokens of an MCP server',
  ],
  options: { 'mcp-config': { type: 'string' } },
  positionals: { required: ['id'] },
  async run(runtime, values, [id]) {
    const store = runtime.store();
    const { subject } = runtime.settings;
    const stored = (await store.listConnections(subject)).some((connection) => connection.connectorId === id);
    // An uninstalled connector's leftover connection can still be removed; otherwise the id must be
    // a connector's or a configured MCP server's.
    if (!stored && !(await findMcpServer(runtime, id!, values['mcp-config'] as string | undefined))) {
      await runtime.connector(id!);
    }
    const removed = stored && (await removeConnection(runtime, subject, id!));
    if (runtime.settings.json) runtime.printJson({ connector: id, removed });
    else
      runtime.print(
        removed ? `Disconnected ${id} for ${subject}.` : `${id} was not connected for ${subject}.`,
      );
    return exitCodes.ok;
  },
};
