/** Formatting shared by the pages. */

/** A local date and time, e.g. "26 Nov 2026, 21:58:37". */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(undefined, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

/** "in 4 min 12 s" / "3 h ago": a distance in time from `now`. */
export function relativeTime(iso: string, now: number): string {
  const difference = Date.parse(iso) - now;
  const text = duration(Math.abs(difference));
  return difference >= 0 ? `in ${text}` : `${text} ago`;
}

/** A duration in words, the two largest units. */
export function duration(milliseconds: number): string {
  const seconds = Math.floor(milliseconds / 1000);
  const units: [number, string][] = [
    [86_400, 'd'],
    [3_600, 'h'],
    [60, 'min'],
    [1, 's'],
  ];
  const parts: string[] = [];
  let rest = seconds;
  for (const [size, name] of units) {
    if (rest >= size || (name === 's' && parts.length === 0)) {
      parts.push(`${Math.floor(rest / size)} ${name}`);
      rest %= size;
    }
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}

/** A value as one readable line: strings as they are, anything else as compact JSON. */
export function readable(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? String(value);
}
