import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mapModelToolNames, modelToolNamePattern, toModelToolName } from './model-tool-names.js';

// The names issue 33 found in real MCP servers' tool lists, 7 of 13 refused by model APIs as they are.
const hostile = [
  'get.weather',
  'ns/tool',
  'a:b',
  'café',
  'read file',
  `lab_${'x'.repeat(66)}`,
  `lab_${'y'.repeat(76)}`,
  'github_create_issue',
  'read_file',
  'lab-echo',
  'a',
  'Z9_-',
  'x'.repeat(64),
];

describe('model tool names', () => {
  it('keeps names model APIs accept, maps the others into the pattern', () => {
    for (const name of hostile) {
      const mapped = toModelToolName(name);
      expect(mapped, name).toMatch(modelToolNamePattern);
      if (modelToolNamePattern.test(name)) expect(mapped).toBe(name);
      else expect(mapped).not.toBe(name);
    }
    expect(toModelToolName('get.weather')).toMatch(/^get_weather_[0-9a-f]{8}$/);
    expect(toModelToolName('café')).toMatch(/^cafe_[0-9a-f]{8}$/);
  });

  it('is the same from turn to turn (a pure function of the name)', () => {
    expect(toModelToolName('ns/tool')).toBe(toModelToolName('ns/tool'));
  });

  it('maps a whole offer reversibly, with no two tools on one model name', () => {
    const { toModel, toReal } = mapModelToolNames(hostile);
    expect(new Set(toModel.values()).size).toBe(hostile.length);
    for (const name of hostile) expect(toReal.get(toModel.get(name)!)).toBe(name);
  });

  it('never lets a mapped name displace an accepted one, even when they coincide', () => {
    // An accepted name that is exactly what another tool would be mapped to.
    const squatter = toModelToolName('get.weather');
    const { toModel, toReal } = mapModelToolNames(['get.weather', squatter]);
    expect(toModel.get(squatter)).toBe(squatter);
    expect(toModel.get('get.weather')).not.toBe(squatter);
    expect(toModel.get('get.weather')).toMatch(modelToolNamePattern);
    expect(toReal.get(toModel.get('get.weather')!)).toBe('get.weather');
  });

  it('holds for any set of names (property)', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 120 }), { maxLength: 20 }), (names) => {
        const { toModel, toReal } = mapModelToolNames(names);
        const modelNames = names.map((name) => toModel.get(name)!);
        expect(new Set(modelNames).size).toBe(names.length);
        for (const [index, name] of names.entries()) {
          expect(modelNames[index]).toMatch(modelToolNamePattern);
          expect(toReal.get(modelNames[index]!)).toBe(name);
        }
      }),
    );
  });
});
