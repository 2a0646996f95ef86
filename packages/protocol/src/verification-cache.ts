import { createHmac, randomBytes } from 'node:crypto';
import type { Credentials, VerifyResult } from '@patchbay/connector';

interface CacheEntry {
  /** Milliseconds since the epoch when the verification started; TTLs count from here. */
  startedAt: number;
  result: Promise<VerifyResult>;
}

/**
 * Remembers `verify` results per subject, connector and credentials, and shares a verification
 * still in flight, so concurrent and repeated captures call a connector's `verify` once per TTL.
 */
export interface VerificationCache {
  /**
   * Returns a cached or in-flight result younger than `ttlMs`, or starts `run` and caches it.
   * `startedAt` (ms since the epoch) is when the verification that produced it began.
   */
  get(
    key: { subject: string; connectorId: string; credentials: Credentials },
    options: { now: number; ttlMs: number },
    run: () => Promise<VerifyResult>,
  ): Promise<{ result: VerifyResult; startedAt: number }>;
  /** Forgets every entry of a subject (or everything), e.g. after the user reconnects. */
  clear(subject?: string): void;
  /** Number of entries held; for tests and metrics. */
  readonly size: number;
}

/** Options of {@link createVerificationCache}. */
export interface VerificationCacheOptions {
  /** Upper bound on entries; the oldest are dropped first. Default 10,000. */
  maxEntries?: number;
}

/**
 * Creates a verification cache. Keys hold a keyed hash (HMAC with a per-cache random key) of the
 * credentials, never the secret itself, and a plain hash would let anyone reading the keys test
 * guesses of a short API key offline.
 */
export function createVerificationCache(options: VerificationCacheOptions = {}): VerificationCache {
  const maxEntries = options.maxEntries ?? 10_000;
  const hashKey = randomBytes(32);
  const entries = new Map<string, CacheEntry>();

  const fingerprint = (credentials: Credentials) => {
    const hmac = createHmac('sha256', hashKey);
    for (const name of Object.keys(credentials).sort()) {
      hmac.update(name);
      hmac.update('\u0000');
      hmac.update(credentials[name] ?? '');
      hmac.update('\u0000');
    }
    return hmac.digest('base64url');
  };

  return {
    get(key, { now, ttlMs }, run) {
      const cacheKey = JSON.stringify([key.subject, key.connectorId, fingerprint(key.credentials)]);
      const existing = entries.get(cacheKey);
      if (existing && now - existing.startedAt < ttlMs) {
        return existing.result.then((result) => ({ result, startedAt: existing.startedAt }));
      }
      const result = run();
      entries.delete(cacheKey);
      entries.set(cacheKey, { startedAt: now, result });
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next().value as string;
        entries.delete(oldest);
      }
      return result.then((settled) => ({ result: settled, startedAt: now }));
    },
    clear(subject) {
      if (subject === undefined) {
        entries.clear();
        return;
      }
      for (const cacheKey of entries.keys()) {
        if ((JSON.parse(cacheKey) as string[])[0] === subject) entries.delete(cacheKey);
      }
    },
    get size() {
      return entries.size;
    },
  };
}

let sharedCache: VerificationCache | undefined;

/** The process-wide cache `captureStatus` uses when it is given none. */
export function defaultVerificationCache(): VerificationCache {
  sharedCache ??= createVerificationCache();
  return sharedCache;
}
