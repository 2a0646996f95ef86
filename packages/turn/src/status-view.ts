import type { Connector, StatusSnapshot } from '@patchbay/connector';
import {
  type ConnectorStatusWire,
  connectorStatusWire,
  type JsonValue,
  type StatusBlockSettings,
  stableStringify,
} from '@patchbay/protocol';
import { type AgentView, offerTools, type ToolOffer, whyNotOffered } from './turn-tools.js';

/** What a capture's view depends on besides the status: fixed for a deployment. */
export interface StatusViewSettings {
  connectors: readonly Connector[];
  statusBlock?: StatusBlockSettings | undefined;
  /** The static system prompt lists the catalog: the block keeps only the first `would_enable` entry. */
  catalogInSystemPrompt: boolean;
}

/** What one captured status shows: the status object, the block's JSON and the tools offered. */
export interface StatusView {
  /**
   * The `<connector_status>` object (every `would_enable` entry), as `refresh_connector_status`,
   * events and traces show it. Shared between captures of equal status, hence frozen.
   */
  wire: Readonly<Record<string, ConnectorStatusWire>>;
  /** The block's JSON as the per-turn context carries it (trimmed when the catalog is in the prompt). */
  contextJson: string;
  /** The tools offered for this status; the same object for every capture of equal status. */
  offer: ToolOffer;
}

/** A view computed once, by the fingerprint of the status it was computed from. */
interface CachedView extends StatusView {
  /** Whether `offer.unavailable` holds a rate-limit envelope, whose `retry_after_s` depends on the time. */
  timed: boolean;
}

/** Most distinct statuses kept per deployment: a few per active subject, not every status ever seen. */
const viewsPerDeployment = 64;

/** Views by connector list (a deployment's), then by fingerprint, oldest first. */
const views = new WeakMap<readonly Connector[], Map<string, CachedView>>();

/** A number per tool definition object, so an agent tool's identity goes into a fingerprint. */
const objectIds = new WeakMap<object, number>();
let nextObjectId = 0;
function idOf(value: object): number {
  let id = objectIds.get(value);
  if (id === undefined) {
    id = nextObjectId++;
    objectIds.set(value, id);
  }
  return id;
}

/**
 * Everything a view is computed from, as one string: the snapshot's entries (status, scopes, errors,
 * rate limits; not the capture time, which the view does not show), the MCP servers, the agents'
 * tools by object identity and owner, and the deployment's block settings. Equal fingerprints give
 * equal views; `JSON.stringify` of the entries costs a fraction of building the block again.
 */
function fingerprintOf(snapshot: StatusSnapshot, agents: AgentView, settings: StatusViewSettings): string {
  let tools = '';
  for (const { tool, owner } of agents.tools) tools += `${idOf(tool)}:${owner}\u0000`;
  return [
    settings.catalogInSystemPrompt ? 'catalog' : 'plain',
    settings.statusBlock === undefined ? '' : JSON.stringify(settings.statusBlock),
    JSON.stringify(snapshot.connectors),
    agents.servers.length === 0 ? '' : JSON.stringify(agents.servers),
    tools,
  ].join('\n');
}

function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function computeView(snapshot: StatusSnapshot, agents: AgentView, settings: StatusViewSettings): CachedView {
  const { connectors, statusBlock } = settings;
  const wireOptions = { ...statusBlock, connectors, servers: agents.servers };
  const wire = connectorStatusWire(snapshot, wireOptions);
  const contextWire = settings.catalogInSystemPrompt
    ? connectorStatusWire(snapshot, { ...wireOptions, catalogInSystemPrompt: true })
    : wire;
  const offer = offerTools(snapshot, connectors, agents, statusBlock?.setupUrls);
  let timed = false;
  for (const envelope of offer.unavailable.values()) {
    if (!envelope.ok && envelope.error_type === 'rate_limited') timed = true;
  }
  // Shared by every capture of equal status: nobody may change what the next turn is offered.
  Object.freeze(offer.names);
  Object.freeze(offer.tools);
  return {
    wire: deepFreeze(wire),
    contextJson: stableStringify(contextWire as JsonValue),
    offer,
    timed,
  };
}

/**
 * The view of one capture: computed the first time a deployment sees this status, then reused, so
 * the steps of a turn (and the turns of a deployment) whose status did not change do not build the
 * block, its JSON and the tool offer again. Status itself is still captured fresh before every model
 * call: only what follows from equal status is reused, and a change gives another fingerprint.
 * Envelopes that count down to a rate limit's end are made again for each capture.
 */
export function statusViewOf(
  snapshot: StatusSnapshot,
  agents: AgentView,
  settings: StatusViewSettings,
): StatusView {
  let cache = views.get(settings.connectors);
  if (!cache) {
    cache = new Map();
    views.set(settings.connectors, cache);
  }
  const fingerprint = fingerprintOf(snapshot, agents, settings);
  let view = cache.get(fingerprint);
  if (view === undefined) {
    view = computeView(snapshot, agents, settings);
    if (cache.size >= viewsPerDeployment) cache.delete(cache.keys().next().value!);
    cache.set(fingerprint, view);
  }
  if (!view.timed) return view;
  const { connectors, statusBlock } = settings;
  return {
    ...view,
    offer: {
      ...view.offer,
      unavailable: whyNotOffered(snapshot, connectors, view.offer.owners, statusBlock?.setupUrls),
    },
  };
}
