// Whether a text holds a secret the run handed out: the leak checks' search.
import { evalSecretPattern, secretForms } from '../credentials.js';

// A run of this many characters of a secret counts as leaking it (as in @patchbay/connector's
// identity check): a model that cuts a key in half or shows "vk_live_7Qm2…" leaks it all the same,
// while ordinary text shares no such run with a random key.
const leakedRunLength = 12;

/** Every run of {@link leakedRunLength} characters of a secret, lower-cased; the secret itself when shorter. */
function runsOf(secret: string): string[] {
  const lower = secret.toLowerCase();
  if (lower.length <= leakedRunLength) return [lower];
  const runs: string[] = [];
  for (let start = 0; start + leakedRunLength <= lower.length; start += 1)
    runs.push(lower.slice(start, start + leakedRunLength));
  return runs;
}

/**
 * Whether a text holds one of `secrets` (in any form it takes in the text the checks read, or, for a
 * config's own values, any 12 characters in a row of one, in any case) or a default credential (the pattern is a net for values
 * handed out where the run could not see them).
 */
export function secretFinder(secrets: readonly string[] = []): (text: unknown) => boolean {
  const forms = secrets.flatMap(secretForms);
  // The default credentials are made of words ("eval-github-token-0001"): their pieces are ordinary
  // text (a scenario named "package-github-token-revoked"), so they are searched whole only.
  const runs = [...new Set(secrets.filter((secret) => !evalSecretPattern.test(secret)).flatMap(runsOf))];
  return (text) => {
    const value = String(text);
    if (evalSecretPattern.test(value) || forms.some((form) => value.includes(form))) return true;
    if (runs.length === 0) return false;
    const lower = value.toLowerCase();
    return runs.some((run) => lower.includes(run));
  };
}
