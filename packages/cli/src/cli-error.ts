import { PatchbayError, type PatchbayErrorCode } from '@patchbay/envelope';
import type { ExitCode } from './exit-codes.js';
import { exitCodes } from './exit-codes.js';

/** A failure the CLI reports as one readable line and an exit code. */
export class CliError extends PatchbayError {
  /** Brand of `CliError`; see `PatchbayError.isInstance`. */
  static override readonly brand: symbol = Symbol.for('patchbay.error.cli');

  constructor(
    code: PatchbayErrorCode,
    message: string,
    readonly exitCode: ExitCode = exitCodes.error,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
    this.name = 'CliError';
  }
}

/** A bad command line (exit code 2). */
export function usageError(message: string): CliError {
  return new CliError('invalid_usage', message, exitCodes.usage);
}
