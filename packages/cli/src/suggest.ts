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

/** Known names close to `input` (typos, prefixes), best first, at most three. */
export function closeNames(input: string, known: Iterable<string>): string[] {
  const wanted = input.toLowerCase();
  const scored: { name: string; score: number }[] = [];
  for (const name of known) {
    const candidate = name.toLowerCase();
    const limit = Math.max(2, Math.floor(candidate.length / 3));
    const score =
      candidate.startsWith(wanted) || wanted.startsWith(candidate) ? 0.5 : distance(wanted, candidate);
    if (score <= limit) scored.push({ name, score });
  }
  return scored
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, 3)
    .map((item) => item.name);
}

/** " Did you mean a or b?" or "" when nothing is close. */
export function didYouMean(input: string, known: Iterable<string>): string {
  const names = closeNames(input, known);
  if (names.length === 0) return '';
  return ` Did you mean ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`}?`;
}
