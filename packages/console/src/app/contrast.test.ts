import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The palette is chosen for WCAG AA: at least 4.5:1 for text on the background it is drawn on. This
// test reads the custom properties from styles.css (light and dark) so a colour change cannot lose it.

const css = readFileSync(join(import.meta.dirname, 'styles.css'), 'utf8');

/** The `--name: #rrggbb` declarations of the first block matching `selector`. */
function palette(blockStart: RegExp): Record<string, string> {
  const start = css.search(blockStart);
  expect(start, String(blockStart)).toBeGreaterThanOrEqual(0);
  const block = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries(
    [...block.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})/gi)].map((match) => [match[1], match[2]]),
  );
}

function luminance(hex: string): number {
  const channels = [1, 3, 5].map((index) => Number.parseInt(hex.slice(index, index + 2), 16) / 255);
  const [r, g, b] = channels.map((value) =>
    value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4,
  );
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(foreground: string, background: string): number {
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}

/** Text colour → the backgrounds it is drawn on. */
const pairs: [string, string[]][] = [
  ['text', ['bg', 'surface', 'code-bg']],
  ['muted', ['bg', 'surface']],
  ['accent', ['bg', 'surface']],
  ['accent-text', ['accent']],
  ['danger', ['bg', 'surface']],
  ['ok', ['bg', 'surface']],
  ['warn', ['bg', 'surface']],
];

describe('the console palette', () => {
  for (const [scheme, start] of [
    ['light', /:root \{/],
    ['dark', /@media \(prefers-color-scheme: dark\) \{\s*:root \{/],
  ] as const) {
    it(`keeps every text colour at 4.5:1 or more on its background (${scheme})`, () => {
      const colours = palette(start);
      const below: string[] = [];
      for (const [text, backgrounds] of pairs) {
        for (const background of backgrounds) {
          const ratio = contrast(colours[text]!, colours[background]!);
          if (!(ratio >= 4.5)) below.push(`--${text} on --${background}: ${ratio.toFixed(2)}`);
        }
      }
      expect(below).toEqual([]);
    });
  }

  it('computes contrast as WCAG does (black on white is 21:1, a colour on itself 1:1)', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#777777', '#777777')).toBe(1);
    expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });
});
