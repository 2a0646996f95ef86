import { randomBytes } from 'node:crypto';
import type { Connector, Credentials } from '@patchbay/connector';

const canaryMarker = 'pbcanary';
const canaryPattern = /pbcanary[0-9a-f]{24}/g;
// A fragment this long of a secret is a leak; shorter ones could be coincidence.
const fragmentLength = 12;

/** A fresh canary secret: a marker plus 24 random hex digits, safe inside URLs, headers and JSON. */
export function canarySecret(): string {
  return `${canaryMarker}${randomBytes(12).toString('hex')}`;
}

/**
 * Credentials for a connector with a canary appended to every secret field (after the
 * valid-looking `base` value, so prefixes such as `ghp_` or `xoxb-` survive). Non-secret fields
 * keep their base value, or get a canary when none is given.
 */
export function canaryCredentials(connector: Pick<Connector, 'auth'>, base: Credentials = {}): Credentials {
  const credentials: Record<string, string> = { ...base };
  for (const field of connector.auth.fields) {
    const given = base[field.name];
    credentials[field.name] = field.secret || given === undefined ? `${given ?? ''}${canarySecret()}` : given;
  }
  return credentials;
}

/** The values to look for: the canary part of a canary credential, else the whole secret. */
function needlesOf(secrets: Iterable<string>): string[] {
  const needles = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length < 4) continue;
    const canaries = secret.match(canaryPattern);
    for (const needle of canaries ?? [secret]) needles.add(needle.toLowerCase());
  }
  return [...needles];
}

function fragmentsOf(needle: string): string[] {
  if (needle.length <= fragmentLength) return [needle];
  const fragments: string[] = [];
  for (let start = 0; start + fragmentLength <= needle.length; start += 1) {
    fragments.push(needle.slice(start, start + fragmentLength));
  }
  return fragments;
}

function decodedForms(text: string): { form: string; text: string }[] {
  const forms = [{ form: 'as text', text }];
  try {
    const decoded = decodeURIComponent(text);
    if (decoded !== text) forms.push({ form: 'URL-decoded', text: decoded });
  } catch {
    // Not valid percent-encoding: nothing hidden that way.
  }
  // Base64 runs, tried at every alignment because a run may be glued to other characters.
  for (const run of text.match(/[A-Za-z0-9+/_-]{16,}={0,2}/g) ?? []) {
    for (let offset = 0; offset < 4; offset += 1) {
      const candidate = run.slice(offset).replaceAll('-', '+').replaceAll('_', '/');
      forms.push({ form: 'base64-decoded', text: Buffer.from(candidate, 'base64').toString('latin1') });
    }
  }
  return forms;
}

/**
 * Finds credentials in any JSON-like value (keys and strings, recursively), also URL-encoded,
 * base64-encoded, upper-cased or cut to a 12-character fragment. Returns one line per leak naming
 * the path and the form, without repeating the secret; empty when clean.
 */
export function findSecretLeaks(value: unknown, secrets: Iterable<string>): string[] {
  const fragments = needlesOf(secrets).flatMap(fragmentsOf);
  if (fragments.length === 0) return [];
  const leaks: string[] = [];
  const seen = new WeakSet<object>();
  const leakForm = (text: string): string | undefined => {
    for (const { form, text: candidate } of decodedForms(text)) {
      const lower = candidate.toLowerCase();
      if (fragments.some((fragment) => lower.includes(fragment))) return form;
    }
    return undefined;
  };
  const walk = (current: unknown, path: string) => {
    if (typeof current === 'string') {
      const form = leakForm(current);
      if (form) leaks.push(`${path || '(root)'}: credential found ${form}`);
      return;
    }
    if (current === null || typeof current !== 'object') return;
    if (seen.has(current)) return;
    seen.add(current);
    for (const [key, inner] of Object.entries(current)) {
      const keyForm = leakForm(key);
      // The report names the path, so a leaking key must not appear in it.
      const shownKey = keyForm ? '<key>' : key;
      const innerPath = Array.isArray(current) ? `${path}[${key}]` : path ? `${path}.${shownKey}` : shownKey;
      if (keyForm) leaks.push(`${innerPath} (key): credential found ${keyForm}`);
      walk(inner, innerPath);
    }
  };
  walk(value, '');
  return leaks;
}
