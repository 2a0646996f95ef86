import { createHash } from 'node:crypto';

/** What every major model API accepts as a tool name (OpenAI, Anthropic, Google). */
export const modelToolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/** Longest kept readable part of a mapped name: the rest is `_` and the hash. */
const readableLength = 64 - 1 - 8;

/**
 * The name a model is shown for a tool: the name itself when model APIs accept it, otherwise a
 * readable part (accents dropped, every other character outside `[a-zA-Z0-9_-]` made `_`, at most 55
 * characters) and `_` plus 8 hex characters of the name's SHA-256. A pure function of the name, so
 * the same tool keeps its model name from turn to turn (the stored history stays valid), and a mapped
 * name cannot equal an accepted one except by a hash coincidence, which {@link ModelToolNames} checks.
 */
export function toModelToolName(name: string): string {
  if (modelToolNamePattern.test(name)) return name;
  const readable = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-zA-Z0-9_-]/g, '_')
    .slice(0, readableLength);
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${readable || 'tool'}_${hash}`;
}

/** Both directions of the model-name mapping of one offer. */
export interface ModelToolNames {
  /** Real name → the name the model is shown. */
  readonly toModel: ReadonlyMap<string, string>;
  /** The name the model called → the real name; names the model made up are absent. */
  readonly toReal: ReadonlyMap<string, string>;
}

/**
 * Maps a set of real tool names to model names, reversibly and without collisions: names model APIs
 * accept stay as they are; others get {@link toModelToolName}; on the (hash) coincidence that a mapped
 * name is already taken, the hash is lengthened until it is free.
 */
export function mapModelToolNames(names: Iterable<string>): ModelToolNames {
  const toModel = new Map<string, string>();
  const toReal = new Map<string, string>();
  const all = [...new Set(names)];
  // Accepted names first: they are the model names of themselves and must never be displaced.
  for (const name of all) {
    if (!modelToolNamePattern.test(name)) continue;
    toModel.set(name, name);
    toReal.set(name, name);
  }
  for (const name of all.filter((candidate) => !modelToolNamePattern.test(candidate)).sort()) {
    let mapped = toModelToolName(name);
    for (let extra = 0; toReal.has(mapped); extra += 4) {
      const hash = createHash('sha256')
        .update(name)
        .digest('hex')
        .slice(0, 12 + extra);
      mapped = `${mapped.slice(0, 63 - hash.length)}_${hash}`;
    }
    toModel.set(name, mapped);
    toReal.set(mapped, name);
  }
  return { toModel, toReal };
}
