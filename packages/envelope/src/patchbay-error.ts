const marker = Symbol.for('patchbay.error');

/**
 * Base class of every error Patchbay throws. The `code` is stable; the `Symbol.for` brand lets
 * `isInstance` work across duplicated installs of the package.
 */
export class PatchbayError extends Error {
  /** Stable machine-readable code, e.g. `invalid_definition`, or an envelope `error_type`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PatchbayError';
    this.code = code;
    // Non-enumerable so the brand never shows up when an error is logged or copied.
    Object.defineProperty(this, marker, { value: true });
  }

  /** True for any PatchbayError, whichever copy of the package created it. */
  static isInstance(error: unknown): error is PatchbayError {
    try {
      return (
        typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true
      );
    } catch {
      return false;
    }
  }
}
