import type { McpServerConfig } from './config.js';

/**
 * Shortest declared value redacted whatever its variable is called. Below this, values are flags,
 * ports, levels and words ("1", "true", "8080", "debug", "prod") that occur all over ordinary
 * results: removing them would mangle output and protect nothing, since a credential is not that
 * short (GitHub tokens are 40+ characters, API keys 20+; 8 still covers short passwords).
 */
export const minDeclaredSecretLength = 8;
/**
 * Shortest value redacted from a variable whose name says it is a credential (`*_TOKEN`, `PASSWORD`)
 * or from a header: those are secret by declaration, so only values too short to search for
 * without matching everything (the envelope redactor's own floor) are left out.
 */
export const minNamedSecretLength = 4;

// Variable names that announce a credential.
const secretLikeName = /token|secret|key|password|passwd|auth|credential|cookie|session|pat$/i;
// `Authorization: Bearer <token>`: a server may echo the token without its scheme.
const schemePrefix = /^(?:bearer|basic|token|bot|apikey)\s+(\S+)$/i;

/**
 * The values an MCP server's output is redacted of: every declared env value and header value
 * (after `${VAR}` expansion — `"GH": "${GITHUB_TOKEN}"` holds the token under a harmless name),
 * subject to the length rule above, plus the credential part of scheme-prefixed headers and a
 * configured OAuth client secret. OAuth tokens change while the agent runs; the agent adds them.
 */
export function secretValuesOf(config: McpServerConfig): string[] {
  const values = new Set<string>();
  const add = (value: string, named: boolean) => {
    const trimmed = value.trim();
    if (trimmed.length >= (named ? minNamedSecretLength : minDeclaredSecretLength)) values.add(trimmed);
    const credential = schemePrefix.exec(trimmed)?.[1];
    if (credential && credential.length >= minNamedSecretLength) values.add(credential);
  };
  if (config.transport === 'stdio') {
    for (const [name, value] of Object.entries(config.env)) add(value, secretLikeName.test(name));
  } else {
    for (const value of Object.values(config.headers)) add(value, true);
    if (config.oauth?.clientSecret) add(config.oauth.clientSecret, true);
  }
  return [...values];
}
