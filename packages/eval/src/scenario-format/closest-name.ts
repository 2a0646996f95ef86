// "Did you mean": the known name a misspelt one most likely meant.

/** Edit distance (insertions, deletions, substitutions) between two strings. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      current[j] = Math.min(
        previous[j]! + 1,
        current[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** The known name closest to `input` when it is close enough to be a typo, else undefined. */
export function closestName(input: string, known: readonly string[]): string | undefined {
  const wanted = String(input).toLowerCase();
  let best: { name: string; score: number } | undefined;
  for (const name of known) {
    const candidate = name.toLowerCase();
    const limit = Math.max(2, Math.floor(candidate.length / 3));
    const score = distance(wanted, candidate);
    // A prefix either way is close however long the rest (`slack` for `slack_post`), but a name
    // closer by edit distance still wins.
    const prefix = candidate.startsWith(wanted) || wanted.startsWith(candidate);
    if ((score <= limit || prefix) && (!best || score < best.score)) best = { name, score };
  }
  return best?.name;
}
