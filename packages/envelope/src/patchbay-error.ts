import type { PatchbayErrorCode } from './error-codes.js';

/** What `isInstance` needs of an error class: its own brand and the type of its instances. */
export interface BrandedErrorClass<Instance> {
  /** The `Symbol.for` brand every instance of the class (and of its subclasses) carries. */
  readonly brand: symbol;
  /** The instance type, for the type guard. */
  readonly prototype: Instance;
}

/**
 * Base class of every error Patchbay throws. The `code` is one of {@link PatchbayErrorCode}, stable
 * across releases.
 *
 * `instanceof` fails when an app ends up with two copies of a package (two versions, or ESM and a
 * bundle), so each error class declares a `static brand` made with `Symbol.for` — the same symbol in
 * every copy — and its `isInstance` looks for that brand. An instance carries the brands of its own
 * class and of every class it extends: an `HttpError` is a `PatchbayError`, never the reverse.
 * A subclass must declare its own `brand`; otherwise its `isInstance` would answer for the base.
 */
export class PatchbayError extends Error {
  /** Brand of this class; the name is kept from before brands were per class, so older copies agree. */
  static readonly brand: symbol = Symbol.for('patchbay.error');

  /** Stable machine-readable code, e.g. `invalid_definition`, or an envelope `error_type`. */
  readonly code: PatchbayErrorCode;

  constructor(code: PatchbayErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PatchbayError';
    this.code = code;
    for (let current: unknown = new.target; current !== Error && typeof current === 'function'; ) {
      const { brand } = current as { brand?: unknown };
      if (Object.hasOwn(current, 'brand') && typeof brand === 'symbol') {
        // Non-enumerable so the brand never shows up when an error is logged or copied.
        Object.defineProperty(this, brand, { value: true });
      }
      current = Object.getPrototypeOf(current);
    }
  }

  /**
   * True for an instance of the class it is called on (`HttpError.isInstance`, `CliError.isInstance`)
   * or of a subclass, whichever copy of the package created it. Never throws, even for a hostile proxy.
   */
  static isInstance<Instance>(
    this: BrandedErrorClass<Instance> | undefined,
    error: unknown,
  ): error is Instance {
    // Called unbound (`errors.filter(PatchbayError.isInstance)`), it answers for the base class.
    // biome-ignore lint/complexity/noThisInStatic: the class it is called on decides which brand counts.
    const brand = this?.brand ?? PatchbayError.brand;
    try {
      return (
        typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[brand] === true
      );
    } catch {
      return false;
    }
  }
}
