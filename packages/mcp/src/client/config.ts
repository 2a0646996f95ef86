import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PatchbayError } from '@patchbay/envelope';
import { z } from 'zod';
import { expandVariables } from './expand-variables.js';

/**
 * Default per-request timeout of an MCP server, in milliseconds: seed 003's 10 s. It is the whole
 * budget of a call (retry included) and the orchestrator's deadline for the tool, so it stays well
 * inside the 60 s an MCP host gives a request through the gateway. Slow servers set `timeout`.
 */
export const defaultMcpTimeoutMs = 10_000;

const serverNamePattern = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

const stringMap = z.record(z.string(), z.string());

/** Options every server entry accepts, whichever transport it uses. */
const commonOptionsShape = {
  timeout: z.number().int().positive().optional().describe('Per-request timeout in milliseconds.'),
  autoStart: z.boolean().optional().describe('Start with the orchestrator (default true).'),
  trust: z.boolean().optional().describe('Whether the server is trusted (default false).'),
  requireApproval: z
    .boolean()
    .optional()
    .describe(
      "Every call of the server's tools waits for a person's approval, reads included (default false).",
    ),
  prefix: z
    .union([z.string().regex(/^[A-Za-z0-9_.-]+$/), z.boolean()])
    .optional()
    .describe('Tool-name prefix; `true` uses the server name.'),
  // Claude Desktop / Cursor style entries carry these; accepted so pasted files parse.
  disabled: z.boolean().optional(),
  type: z.enum(['stdio', 'http', 'streamable-http', 'streamableHttp', 'sse']).optional(),
};

/** A server entry as written in either form of the file, before normalisation. */
const rawServerSchema = z
  .object({
    command: z.string().min(1).optional(),
    args: z.array(z.string()).optional(),
    env: stringMap.optional(),
    cwd: z.string().min(1).optional(),
    url: z.string().url().optional(),
    headers: stringMap.optional(),
    auth: z
      .enum(['oauth', 'auto', 'none'])
      .optional()
      .describe('OAuth for streamable HTTP: always, when the server asks (default), or never.'),
    oauth: z
      .object({
        clientId: z.string().min(1).optional(),
        clientSecret: z.string().min(1).optional(),
        scopes: z.array(z.string().min(1)).optional(),
        redirectPort: z.number().int().min(1).max(65_535).optional(),
        clientMetadataUrl: z
          .string()
          .url()
          .refine((value) => value.startsWith('https://') && new URL(value).pathname !== '/', {
            message: 'must be an https URL with a path',
          })
          .optional(),
      })
      .strict()
      .optional(),
    ...commonOptionsShape,
  })
  .passthrough()
  .superRefine((entry, context) => {
    if (entry.command === undefined && entry.url === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['command'],
        message: 'needs either "command" (stdio) or "url" (streamable HTTP)',
      });
    }
    if (entry.command !== undefined && entry.url !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['url'],
        message: 'give either "command" or "url", not both',
      });
    }
    if (entry.type === 'sse') {
      context.addIssue({
        code: 'custom',
        path: ['type'],
        message: 'the legacy SSE transport is not supported; use streamable HTTP',
      });
    }
    if (
      entry.url !== undefined &&
      (entry.env !== undefined || entry.args !== undefined || entry.cwd !== undefined)
    ) {
      context.addIssue({
        code: 'custom',
        path: ['url'],
        message: '"env", "args" and "cwd" only apply to stdio servers',
      });
    }
    if (entry.command !== undefined && (entry.auth !== undefined || entry.oauth !== undefined)) {
      context.addIssue({
        code: 'custom',
        path: [entry.auth !== undefined ? 'auth' : 'oauth'],
        message: '"auth" and "oauth" only apply to streamable HTTP servers',
      });
    }
    if (entry.auth === 'none' && entry.oauth !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['oauth'],
        message: 'OAuth settings given but "auth" is "none"',
      });
    }
    if (entry.oauth?.clientSecret !== undefined && entry.oauth.clientId === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['oauth', 'clientSecret'],
        message: 'a client secret needs its "clientId"',
      });
    }
  });

const listFormSchema = z.object({
  servers: z.array(z.object({ name: z.string() }).passthrough()),
});
const objectFormSchema = z.object({
  mcpServers: z.record(z.string(), z.unknown()),
});

/** Options every normalised server config carries. */
interface McpServerCommonConfig {
  /** Unique server name; also the agent id. */
  name: string;
  /** Per-request timeout in milliseconds. */
  timeout: number;
  /** Whether the orchestrator should start the server with the rest (false for `disabled` entries). */
  autoStart: boolean;
  /** Whether tools of this server are trusted by the approval gate. */
  trust: boolean;
  /** Every call of the server's tools waits for a person's approval, reads included (seed 003's `requiresApproval`). */
  requireApproval?: boolean | undefined;
  /** Prefix put before every tool name with an underscore, if any. */
  prefix?: string | undefined;
}

/** A server spawned as a child process and spoken to over stdio. */
export interface McpStdioServerConfig extends McpServerCommonConfig {
  transport: 'stdio';
  command: string;
  args: string[];
  /** Variables the child gets on top of the SDK's safe default environment, `${VAR}` already expanded. Secret. */
  env: Record<string, string>;
  cwd?: string | undefined;
}

/**
 * When Patchbay signs in to a streamable-HTTP server with OAuth 2.1: `oauth` always, `auto` when
 * the server answers 401 with a `WWW-Authenticate` challenge, `none` never (static headers only).
 */
export type McpServerAuthMode = 'oauth' | 'auto' | 'none';

/** OAuth client settings of one server; everything optional (dynamic client registration fills the client). */
export interface McpOAuthSettings {
  /** A client registered with the authorization server beforehand; without it the client registers itself. */
  clientId?: string | undefined;
  /** The pre-registered client's secret, `${VAR}` already expanded. Secret. */
  clientSecret?: string | undefined;
  /** Scopes to ask for; default what the server's metadata says. */
  scopes?: string[] | undefined;
  /** Port of the loopback redirect during `patchbay connect`; default a free one. */
  redirectPort?: number | undefined;
  /**
   * An https URL where the deployment publishes Patchbay's OAuth client metadata document (client ID
   * metadata documents, SEP-991): used as the client id by authorization servers that support it,
   * instead of registering a client.
   */
  clientMetadataUrl?: string | undefined;
}

/** A server reached over streamable HTTP. */
export interface McpHttpServerConfig extends McpServerCommonConfig {
  transport: 'streamable-http';
  url: string;
  /** Extra request headers, `${VAR}` already expanded. Secret. */
  headers: Record<string, string>;
  /** Whether to sign in with OAuth (default `auto`). */
  auth?: McpServerAuthMode | undefined;
  /** OAuth client settings, when any are given. */
  oauth?: McpOAuthSettings | undefined;
}

/** One normalised MCP server entry. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** A parsed `mcp-servers.json`. */
export interface McpServersConfig {
  servers: McpServerConfig[];
}

/** Options of {@link loadMcpServersConfig} and {@link parseMcpServersConfig}. */
export interface LoadMcpServersConfigOptions {
  /** Where `${VAR}` references are looked up; defaults to `process.env`. */
  environment?: Readonly<Record<string, string | undefined>>;
  /** Directory relative `cwd` values are resolved against; defaults to the file's directory. */
  baseDirectory?: string;
}

function invalid(message: string): PatchbayError {
  return new PatchbayError('invalid_mcp_config', message);
}

function describeIssue(source: string, server: string, issue: z.core.$ZodIssue): string {
  const field = issue.path.map(String).join('.') || '(entry)';
  return `${source}: server "${server}": field "${field}": ${issue.message}`;
}

function normaliseEntry(
  name: string,
  raw: unknown,
  source: string,
  options: LoadMcpServersConfigOptions,
): McpServerConfig {
  if (!serverNamePattern.test(name)) {
    throw invalid(`${source}: server "${name}": field "name": use letters, digits, "_", "-" or "." only`);
  }
  const parsed = rawServerSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw invalid(first ? describeIssue(source, name, first) : `${source}: server "${name}" is invalid`);
  }
  const entry = parsed.data;
  const environment = options.environment ?? process.env;
  const expandAll = (values: Record<string, string> | undefined, field: string): Record<string, string> => {
    const expanded: Record<string, string> = {};
    for (const [key, value] of Object.entries(values ?? {})) {
      const result = expandVariables(value, environment);
      if (!result.ok) {
        throw invalid(
          `${source}: server "${name}": field "${field}.${key}": references \${${result.missing}}, which is not set in the environment`,
        );
      }
      expanded[key] = result.value;
    }
    return expanded;
  };
  const prefix = entry.prefix === true ? name : entry.prefix === false ? undefined : entry.prefix;
  const common: McpServerCommonConfig = {
    name,
    timeout: entry.timeout ?? defaultMcpTimeoutMs,
    autoStart: entry.autoStart ?? !(entry.disabled ?? false),
    trust: entry.trust ?? false,
    ...(entry.requireApproval ? { requireApproval: true } : {}),
    prefix,
  };
  if (entry.url !== undefined) {
    return {
      ...common,
      transport: 'streamable-http',
      url: entry.url,
      headers: expandAll(entry.headers, 'headers'),
      auth: entry.auth ?? 'auto',
      ...(entry.oauth
        ? {
            oauth: {
              ...entry.oauth,
              ...(entry.oauth.clientSecret === undefined
                ? {}
                : {
                    clientSecret: expandAll({ clientSecret: entry.oauth.clientSecret }, 'oauth').clientSecret,
                  }),
            },
          }
        : {}),
    };
  }
  const baseDirectory = options.baseDirectory ?? process.cwd();
  return {
    ...common,
    transport: 'stdio',
    command: entry.command as string,
    args: entry.args ?? [],
    env: expandAll(entry.env, 'env'),
    cwd:
      entry.cwd === undefined
        ? undefined
        : isAbsolute(entry.cwd)
          ? entry.cwd
          : resolve(baseDirectory, entry.cwd),
  };
}

/**
 * Parses an already-read `mcp-servers.json` value: the list form (`{ servers: [...] }`), seed 003's
 * bare array of the same entries (`[{ name, command, ... }]`), or the `mcpServers` object form used
 * by Claude Desktop and Cursor. Throws `invalid_mcp_config` naming the server and field at fault.
 */
export function parseMcpServersConfig(
  value: unknown,
  options: LoadMcpServersConfigOptions & { source?: string } = {},
): McpServersConfig {
  const source = options.source ?? 'mcp-servers.json';
  const entries: Array<[string, unknown]> = [];
  // The bare array is the list form without its wrapper: one parser, so both report errors alike.
  const list = listFormSchema.safeParse(Array.isArray(value) ? { servers: value } : value);
  const object = objectFormSchema.safeParse(value);
  if (list.success) {
    for (const [index, server] of list.data.servers.entries()) {
      const { name, ...rest } = server;
      if (name.trim() === '') throw invalid(`${source}: servers[${index}]: field "name": must not be empty`);
      entries.push([name, rest]);
    }
  } else if (object.success) {
    entries.push(...Object.entries(object.data.mcpServers));
  } else if (Array.isArray(value) || (typeof value === 'object' && value !== null && 'servers' in value)) {
    const issue = list.error.issues[0];
    throw invalid(
      `${source}: field "${issue?.path.map(String).join('.') ?? 'servers'}": ${issue?.message ?? 'invalid'}`,
    );
  } else {
    throw invalid(`${source}: expected [...], { "servers": [...] } or { "mcpServers": { ... } }`);
  }
  const seen = new Set<string>();
  const servers: McpServerConfig[] = [];
  for (const [name, raw] of entries) {
    if (seen.has(name))
      throw invalid(`${source}: server "${name}": field "name": used by more than one server`);
    seen.add(name);
    servers.push(normaliseEntry(name, raw, source, options));
  }
  return { servers };
}

/**
 * Loads `mcp-servers.json` from a path, or normalises a config object given directly.
 * Relative `cwd` values resolve against the file's directory.
 */
export async function loadMcpServersConfig(
  pathOrObject: string | URL | Record<string, unknown>,
  options: LoadMcpServersConfigOptions = {},
): Promise<McpServersConfig> {
  if (typeof pathOrObject === 'object' && !(pathOrObject instanceof URL)) {
    return parseMcpServersConfig(pathOrObject, options);
  }
  const path = pathOrObject instanceof URL ? fileURLToPath(pathOrObject) : resolve(pathOrObject);
  const source = pathOrObject instanceof URL ? path : pathOrObject;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new PatchbayError('invalid_mcp_config', `${source}: cannot be read`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new PatchbayError('invalid_mcp_config', `${source}: is not valid JSON`, { cause: error });
  }
  const baseDirectory = options.baseDirectory ?? dirname(path);
  return parseMcpServersConfig(value, { ...options, baseDirectory, source });
}
