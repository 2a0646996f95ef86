// The credentials a scenario run hands out, and which of them are secrets the checks search for. The
// checks look for the very values a run handed out (a config's own `credentials` included), so a
// value must be long enough that finding it in a prompt or a reply means it leaked, not that it
// happens to spell an ordinary word.
import type { Connector } from '@patchbay/connector';

/**
 * The shortest secret the eval accepts. Shorter values would match ordinary text ("abc123" in a
 * ticket id), so a check could neither trust a hit nor be sure a miss meant no leak.
 */
export const minSecretLength = 8;

/** Matches the default credentials (see {@link evalCredentials}): the checks' extra net for them. */
export const evalSecretPattern = /eval-[a-z]+-[a-z_]+-0001/;

/**
 * The credentials the eval connects a connector with by default: every field gets
 * `eval-<connector>-<field>-0001`. A config's `credentials` replaces it (for fields a service reads
 * back, such as a login, or values of the form a service expects).
 */
export function evalCredentials(connector: Connector): Record<string, string> {
  const fields = connector.auth.fields ?? [];
  if (fields.length === 0) return { token: `eval-${connector.id}-token-0001` };
  return Object.fromEntries(fields.map((field) => [field.name, `eval-${connector.id}-${field.name}-0001`]));
}

/**
 * The fields of `credentials` that are secret for `connector`: those its auth declares secret (the
 * default), and every field it does not declare (a value nobody said is public is treated as secret).
 */
function secretFieldsOf(connector: Connector, credentials: Record<string, unknown>): string[] {
  const declared = new Map((connector.auth?.fields ?? []).map((field) => [field.name, field]));
  return Object.keys(credentials).filter((name) => declared.get(name)?.secret !== false);
}

/**
 * What a `credentials` function hands `connector`: the credentials, the secret values among them, and
 * every problem (not an object, a value that is not text, a secret shorter than {@link minSecretLength}).
 */
export function credentialsFor(
  connector: Connector,
  credentialsOf: (connector: Connector) => Record<string, string> = evalCredentials,
): { credentials: Record<string, string>; secrets: string[]; problems: string[] } {
  let credentials: unknown;
  try {
    credentials = credentialsOf(connector);
  } catch (error) {
    return {
      credentials: {},
      secrets: [],
      problems: [`threw for ${connector.id}: ${error instanceof Error ? error.message : String(error)}`],
    };
  }
  if (credentials === null || typeof credentials !== 'object' || Array.isArray(credentials))
    return {
      credentials: {},
      secrets: [],
      problems: [`returned no map of field → value for ${connector.id}`],
    };
  const problems: string[] = [];
  for (const [field, value] of Object.entries(credentials))
    if (typeof value !== 'string') problems.push(`${connector.id}.${field} is not text`);
  const secrets: string[] = [];
  const given = credentials as Record<string, unknown>;
  for (const field of secretFieldsOf(connector, given)) {
    const value = given[field];
    if (typeof value !== 'string') continue;
    if (value.length < minSecretLength)
      problems.push(
        `${connector.id}.${field} is ${value.length} characters; a secret needs at least ${minSecretLength}, or the leak checks could not tell it from ordinary text (declare the field secret: false if it is not a secret)`,
      );
    else secrets.push(value);
  }
  // Values that are not text are reported above; the run stops on any problem before using them.
  return { credentials: given as Record<string, string>, secrets, problems };
}

/**
 * The forms a secret takes in text the checks read: as it is, and escaped once and twice as JSON (a
 * prompt or a trace is searched as JSON, and a tool result may be JSON inside a JSON string).
 */
export function secretForms(secret: string): string[] {
  const once = JSON.stringify(secret).slice(1, -1);
  const twice = JSON.stringify(once).slice(1, -1);
  return [...new Set([secret, once, twice])];
}
