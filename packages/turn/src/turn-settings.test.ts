import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunTurnOptions } from './turn-types.js';

// Each test loads the module afresh: "once per process" is module state.
async function freshSettings() {
  vi.resetModules();
  return import('./turn-settings.js');
}

const options = (retry: RunTurnOptions['retry']) => ({ retry }) as RunTurnOptions;

describe('deprecated retry.maxAttempts', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('warns once per process, as a DeprecationWarning with a code, and keeps its meaning', async () => {
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const { resolveTurnSettings } = await freshSettings();
    const settings = [1, 2, 3].map(() => resolveTurnSettings(options({ maxAttempts: 2 })));
    expect(settings.map((each) => each.maxAttempts)).toEqual([2, 2, 2]);
    expect(warnings).toHaveBeenCalledTimes(1);
    expect(warnings.mock.calls[0]?.[0]).toContain('retry.totalAttempts');
    expect(warnings.mock.calls[0]?.[1]).toEqual({
      type: 'DeprecationWarning',
      code: 'PATCHBAY_RETRY_MAX_ATTEMPTS',
    });
  });

  it('does not warn for totalAttempts or the default', async () => {
    const warnings = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const { resolveTurnSettings } = await freshSettings();
    resolveTurnSettings(options({ totalAttempts: 3 }));
    resolveTurnSettings(options(undefined));
    expect(warnings).not.toHaveBeenCalled();
  });
});
