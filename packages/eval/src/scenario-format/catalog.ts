// What scenario files may name beyond their own keys, and the reading of a raw (not yet valid)
// document that checks it.
import type { Connector } from '@patchbay/connector';
import type { z } from 'zod';

/** One item of a BFCL data file, as the `bfcl_*` forms read it. */
export interface BfclItem {
  id: string;
  question: Array<Array<{ content: string }>>;
}

/** AgentDojo's attacks.json, as `agentdojo:` reads it. */
export interface AgentDojoAttacks {
  default_user: string;
  attack_templates: Record<string, string>;
  injection_goals: Record<string, Array<{ task: string; goal: string }>>;
}

/**
 * What scenario files may name, beyond their own keys (built from the eval config by `catalogOf`):
 * `connectors` the connectors a scenario runs on by default, `packages` the connectors `packages:` may
 * name (by id), `responses` the fake service's response names for `http` routes, `baselines` the names
 * `targets` may use, `adversaries`, `mcpTools` and `memoryTools`, `databases` the stores `store:` may
 * name, `functionTools` the tools of `functions: true`, `bfcl(file)` the cases of a BFCL data file (a
 * Map by id, or undefined when there is no such file), `agentdojo` the attacks file. An extension left
 * undefined makes the keys that need it a problem.
 */
export interface ScenarioCatalog {
  connectors: readonly Connector[];
  packages?: Readonly<Record<string, Connector>> | undefined;
  responses?: readonly string[] | undefined;
  baselines?: readonly string[] | undefined;
  adversaries?: readonly string[] | undefined;
  mcpTools?: readonly string[] | undefined;
  memoryTools?: readonly string[] | undefined;
  databases?: readonly string[] | undefined;
  functionTools?: readonly string[] | undefined;
  bfcl?: ((file: string) => Map<string, BfclItem> | undefined) | undefined;
  agentdojo?: AgentDojoAttacks | undefined;
}

/** A data path: keys and list indexes. */
export type DataPath = Array<string | number>;

/** A problem before it is placed in the file: its data path, and whether it points at the key. */
export interface FoundProblem {
  path: DataPath;
  message: string;
  /** Point at the key itself rather than its value (an unknown key, a key that does not belong). */
  atKey?: boolean | undefined;
  suggestion?: string | undefined;
}

/** A raw YAML map. */
export type RawMap = Record<string, unknown>;

/** Whether a raw value is a map (not a list, not null). */
export const isRecord = (value: unknown): value is RawMap =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** A raw map's entries; none for anything else. */
export const entriesOf = (value: unknown): Array<[string, unknown]> =>
  isRecord(value) ? Object.entries(value) : [];

/** A raw list's items with their indexes; none for anything else. */
export const itemsOf = (value: unknown): Iterable<[number, unknown]> =>
  Array.isArray(value) ? value.entries() : [];

/** A tool as the catalog checks see it: its name, and its input schema's fields when known. */
export interface CatalogTool {
  name: string;
  input?: z.core.$ZodType | undefined;
}
