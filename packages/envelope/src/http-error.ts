import { PatchbayError } from './patchbay-error.js';

/** Minimal view of an HTTP response: what `toEnvelope` needs to classify it. */
export interface HttpResponseLike {
  status: number;
  headers?: Headers | Record<string, string | string[] | undefined>;
  /** Parsed body when already read (JSON object or text). */
  body?: unknown;
}

function safeHeaders(init: HeadersInit | undefined): Headers {
  try {
    return new Headers(init);
  } catch {
    // A malformed header must not turn an HTTP failure into a crash of the error path.
    return new Headers();
  }
}

/**
 * Thrown by connectors for a non-2xx response after reading its body, so `toEnvelope` can use
 * status, headers and the service's own message. Holds response headers only, never the request's.
 */
export class HttpError extends PatchbayError {
  /** Brand of `HttpError`; see {@link PatchbayError.isInstance}. */
  static override readonly brand: symbol = Symbol.for('patchbay.error.http');

  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
  /** Scopes the service says are missing, when it says so (GitHub, Slack). */
  readonly missingScopes: string[] | undefined;

  constructor(options: {
    status: number;
    headers?: HeadersInit;
    body?: unknown;
    message?: string;
    missingScopes?: string[];
  }) {
    super('http_error', options.message ?? `HTTP ${options.status}`);
    this.name = 'HttpError';
    this.status = options.status;
    this.headers = safeHeaders(options.headers);
    this.body = options.body;
    this.missingScopes = options.missingScopes;
  }

  /**
   * True for an `HttpError` from any copy of the package, also from a copy older than per-class
   * brands (then recognised by its code and status). Prefer `HttpError.isInstance` in new code.
   */
  static isHttpError(error: unknown): error is HttpError {
    if (HttpError.isInstance(error)) return true;
    try {
      return (
        PatchbayError.isInstance(error) &&
        error.code === 'http_error' &&
        typeof (error as { status?: unknown }).status === 'number'
      );
    } catch {
      return false;
    }
  }

  /** Reads a failed `Response` into an `HttpError` (JSON body when possible, else text). Never rejects. */
  static async fromResponse(response: Response, options: { message?: string } = {}): Promise<HttpError> {
    let body: unknown;
    try {
      const text = await response.text();
      try {
        body = JSON.parse(text);
      } catch {
        body = text === '' ? undefined : text;
      }
    } catch {
      body = undefined;
    }
    return new HttpError({
      status: response.status,
      headers: response.headers,
      body,
      message: options.message,
    });
  }
}
