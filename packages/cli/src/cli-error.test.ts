import { HttpError, PatchbayError } from '@patchbay/envelope';
import { describe, expect, it } from 'vitest';
import { CliError, usageError } from './cli-error.js';
import { exitCodes } from './exit-codes.js';

describe('CliError.isInstance', () => {
  const cli = new CliError('unknown_connector', 'Unknown connector "nope".');
  const base = new PatchbayError('not_found', 'gone');
  const http = new HttpError({ status: 500 });

  it('knows a CliError, and a CliError as a PatchbayError', () => {
    expect(CliError.isInstance(cli)).toBe(true);
    expect(CliError.isInstance(usageError('Missing <id>.'))).toBe(true);
    expect(PatchbayError.isInstance(cli)).toBe(true);
  });

  it('does not take another PatchbayError for a CliError, nor a CliError for an HttpError', () => {
    expect(CliError.isInstance(base)).toBe(false);
    expect(CliError.isInstance(http)).toBe(false);
    expect(HttpError.isInstance(cli)).toBe(false);
  });

  it('recognises a CliError from another copy of the CLI by its brand, not its class', () => {
    const foreign = Object.assign(new Error('Cancelled.'), { code: 'cancelled', exitCode: 1 });
    Object.defineProperty(foreign, Symbol.for('patchbay.error'), { value: true });
    Object.defineProperty(foreign, Symbol.for('patchbay.error.cli'), { value: true });
    expect(foreign instanceof CliError).toBe(false);
    expect(CliError.isInstance(foreign)).toBe(true);
  });

  it('carries its exit code', () => {
    expect(usageError('x').exitCode).toBe(exitCodes.usage);
    expect(usageError('x').code).toBe('invalid_usage');
    expect(cli.exitCode).toBe(exitCodes.error);
  });
});
