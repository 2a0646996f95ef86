/** Result of expanding `${VAR}` references in one value. */
export type ExpandResult = { ok: true; value: string } | { ok: false; missing: string };

// `${VAR}` as most MCP configs write it, and Cursor's `${env:VAR}`.
const reference = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces `${VAR}` (or `${env:VAR}`) with the variable's value from `environment`. This is the
 * only path by which a parent variable reaches an MCP child process, so an unset variable is an
 * error rather than an empty string that would fail later and obscurely.
 */
export function expandVariables(
  text: string,
  environment: Readonly<Record<string, string | undefined>>,
): ExpandResult {
  let missing: string | undefined;
  const value = text.replace(reference, (_match, name: string) => {
    const found = environment[name];
    if (found === undefined) {
      missing ??= name;
      return '';
    }
    return found;
  });
  return missing === undefined ? { ok: true, value } : { ok: false, missing };
}
