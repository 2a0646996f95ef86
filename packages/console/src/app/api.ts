/** The console's JSON API, as the page uses it. Wire shapes are snake_case, as the server sends them. */

export interface SessionInfo {
  csrf_token: string;
  subject: string;
  subjects: string[];
}

export interface ProposalView {
  id: string;
  subject: string;
  tool: string;
  tool_description: string | null;
  effect: string | null;
  owner: string | null;
  args: unknown;
  state: 'pending' | 'approved' | 'rejected' | 'executed' | 'expired';
  created_at: string;
  expires_at: string;
  decided_at: string | null;
  decided_by: string | null;
  reason: string | null;
  envelope: Record<string, unknown> | null;
}

export interface CredentialField {
  name: string;
  description: string;
  secret: boolean;
  optional: boolean;
}

export interface ConnectorItem {
  id: string;
  name: string;
  description: string;
  status: string;
  scopes: string[];
  tools: string[];
  identity?: string;
  error?: string;
  retry_after?: string;
  verified_at?: string;
  setup_url?: string;
  fields: CredentialField[];
  disabled_for_everyone: boolean;
  disabled_for_user: boolean;
}

export interface McpServerItem {
  name: string;
  status: 'up' | 'down' | 'starting' | 'not_configured' | 'invalid_credentials';
  tools: string[];
  reason?: string;
  detail?: string;
  setup_command?: string;
  disabled: boolean;
}

export type ConnectOutcome =
  | { status: 'connected'; scopes: string[]; identity?: string }
  | { status: 'refused' | 'unreachable'; reason: string; message: string };

export interface AuditRecord {
  seq: number;
  at: string;
  entry: Record<string, unknown>;
}

export interface TurnContextView {
  subject: string;
  context: string;
  tokens: number;
  encoding: string;
  captured_at: string;
}

/** An answer other than 2xx, with the server's readable message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken = '';
let sessionEnded: () => void = () => undefined;

/** Called once any answer says the session is gone (signed out elsewhere, or a limit ran out). */
export function onSessionEnded(listener: () => void): void {
  sessionEnded = listener;
}

/** Keeps the CSRF token the session endpoint gave, for every state-changing request. */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers:
      method === 'POST'
        ? { 'content-type': 'application/json', 'x-csrf-token': csrfToken }
        : { accept: 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (response.status === 401) sessionEnded();
  if (!response.ok) {
    const message =
      (parsed as { error?: string } | undefined)?.error ?? `The console answered HTTP ${response.status}.`;
    throw new ApiError(response.status, message);
  }
  return parsed as T;
}

/** A GET of the API. */
export function get<T>(path: string): Promise<T> {
  return request<T>('GET', path);
}

/** A POST of the API with a JSON body, the session cookie and the CSRF token. */
export function post<T>(path: string, body: unknown = {}): Promise<T> {
  return request<T>('POST', path, body);
}

/** `?a=b&c=d` from the defined entries. */
export function query(parameters: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(parameters)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}
