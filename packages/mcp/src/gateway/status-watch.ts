import type { Connector, StatusSnapshot } from '@patchbay/connector';
import { isWatchable, type StatusSource } from '@patchbay/connector/ports';
import { redactString } from '@patchbay/envelope';
import type { Agent } from '@patchbay/orchestrator';
import { errorMessage } from '@patchbay/orchestrator/internal';
import { connectorStatusWire, type JsonValue, stableStringify } from '@patchbay/protocol';
import type { Logger } from 'pino';
import type { Tool as McpTool, ServerNotification } from '../sdk.js';

/** URI of the resource holding the current per-turn context block. */
export const connectorStatusResourceUri = 'patchbay://connector-status';

/** What the watch needs from the rest of the gateway. */
export interface StatusWatchDependencies {
  connectors: readonly Connector[];
  /** The status source as given: watched when it announces changes. */
  statusSource: StatusSource;
  /** The one subject of a single-user gateway, always tracked. */
  subject: string | undefined;
  capture(subject: string): Promise<StatusSnapshot>;
  list(snapshot: StatusSnapshot): Promise<McpTool[]>;
  /** The orchestrator's agents, whose tool-list changes are list changes. */
  listAgents: (() => Agent[]) | undefined;
  /** Sends a notification, on a request's own stream when one is given. */
  notify(notification: ServerNotification, related?: unknown): Promise<void>;
  /** Polling interval in ms; 0 for none. */
  intervalMs: number;
  log: Logger;
}

/** Watches what each subject sees and tells the host when it changes. */
export interface StatusWatch {
  /** Records what a subject was just shown (a `tools/list` answer, a status read), so a change is told once. */
  remember(subject: string, tools: readonly McpTool[] | undefined, snapshot: StatusSnapshot): void;
  /** Records a status read only when none is known for the subject (a resource subscription). */
  rememberStatusIfUnknown(subject: string, snapshot: () => Promise<StatusSnapshot>): Promise<void>;
  /** Whether the host subscribed to the status resource. */
  setSubscribed(subscribed: boolean): void;
  /** Rechecks every tracked subject, one check at a time; resolves to whether a tool list changed. */
  recheck(related?: unknown): Promise<boolean>;
  /** Listens to tool-list changes of agents registered since the last look. */
  followAgents(): void;
  /** Starts the poll, the status source subscription and the agent watch (after `initialized`). */
  start(): void;
  /** Stops them all. */
  stop(): void;
}

/**
 * Creates the watch. Three things start a recheck: the status source announcing a change (at once;
 * a Postgres store pushes every process's writes), an agent's tool list changing, and the poll,
 * which stays as the fallback for sources that cannot announce and for announcements that got lost.
 */
export function createStatusWatch(dependencies: StatusWatchDependencies): StatusWatch {
  const { connectors, log } = dependencies;
  /** Per subject: the tool definitions the host last heard of, and the status it last saw. */
  const knownTools = new Map<string, string>();
  const knownStatus = new Map<string, string>();
  let subscribed = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  let unsubscribeSource: (() => void) | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  /** A recheck queued but not begun: a burst of announcements needs one more check, not one each. */
  let pending: Promise<boolean> | undefined;
  const watchedAgents = new Map<Agent, () => void>();
  let stopped = false;

  // Whole definitions, so an upstream server changing a tool's schema or annotations is news too.
  const toolsKey = (tools: readonly McpTool[]) => JSON.stringify(tools);
  const statusKey = (snapshot: StatusSnapshot) =>
    stableStringify(connectorStatusWire(snapshot, { connectors }) as JsonValue);

  function trackedSubjects(): string[] {
    const subjects = new Set([...knownTools.keys(), ...knownStatus.keys()]);
    if (dependencies.subject !== undefined) subjects.add(dependencies.subject);
    return [...subjects];
  }

  /** Follows the orchestrator's agents: an MCP server adding or dropping a tool is a list change. */
  function watchAgents(): void {
    if (stopped || !dependencies.listAgents) return;
    const current = new Set(dependencies.listAgents());
    for (const [agent, unsubscribe] of watchedAgents) {
      if (current.has(agent)) continue;
      unsubscribe();
      watchedAgents.delete(agent);
    }
    for (const agent of current) {
      if (watchedAgents.has(agent) || !agent.onToolsChanged) continue;
      // The orchestrator re-indexes in its own listener, registered first; this recheck runs after it.
      watchedAgents.set(
        agent,
        agent.onToolsChanged(() => void recheck()),
      );
    }
  }

  async function check(related?: unknown): Promise<boolean> {
    let toolsChanged = false;
    let statusChanged = false;
    watchAgents();
    for (const subject of trackedSubjects()) {
      let snapshot: StatusSnapshot;
      let tools: string;
      try {
        snapshot = await dependencies.capture(subject);
        tools = toolsKey(await dependencies.list(snapshot));
      } catch (error) {
        log.warn({ subject, error: redactString(errorMessage(error)) }, 'status recheck failed');
        continue;
      }
      const previousTools = knownTools.get(subject);
      if (previousTools !== undefined && previousTools !== tools) toolsChanged = true;
      knownTools.set(subject, tools);
      const status = statusKey(snapshot);
      const previousStatus = knownStatus.get(subject);
      if (previousStatus !== undefined && previousStatus !== status) statusChanged = true;
      knownStatus.set(subject, status);
    }
    if (toolsChanged) {
      log.info('exposed tools changed; sending tools/list_changed');
      await dependencies.notify({ method: 'notifications/tools/list_changed' }, related);
    }
    if (statusChanged && subscribed) {
      await dependencies.notify(
        { method: 'notifications/resources/updated', params: { uri: connectorStatusResourceUri } },
        related,
      );
    }
    return toolsChanged;
  }

  /** Rechecks one at a time, so a check started after a status write always sees it. */
  function recheck(related?: unknown): Promise<boolean> {
    // Unrelated rechecks (poll, announcement, agent) that find one still waiting to begin share it.
    if (related === undefined && pending) return pending;
    const run = queue.then(() => {
      if (related === undefined) pending = undefined;
      return check(related);
    });
    if (related === undefined) pending = run;
    queue = run.catch(() => false);
    return run;
  }

  /** Subjects the gateway has answered for; a change of anyone else is none of its business. */
  function concerns(subject: string | undefined): boolean {
    return (
      subject === undefined ||
      knownTools.has(subject) ||
      knownStatus.has(subject) ||
      subject === dependencies.subject
    );
  }

  return {
    remember(subject, tools, snapshot) {
      if (tools !== undefined) knownTools.set(subject, toolsKey(tools));
      knownStatus.set(subject, statusKey(snapshot));
    },
    async rememberStatusIfUnknown(subject, snapshot) {
      if (!knownStatus.has(subject)) knownStatus.set(subject, statusKey(await snapshot()));
    },
    setSubscribed(value) {
      subscribed = value;
    },
    recheck,
    followAgents: watchAgents,
    start() {
      watchAgents();
      const source = dependencies.statusSource;
      if (!unsubscribeSource && !stopped && isWatchable(source)) {
        unsubscribeSource = source.subscribe((change) => {
          if (concerns(change.subject)) void recheck();
        });
        // What changed while the subscription was being set up was announced to nobody: look once.
        source.listening?.().then(
          () => {
            if (!stopped) void recheck();
          },
          () => undefined,
        );
      }
      if (dependencies.intervalMs <= 0 || timer || stopped) return;
      timer = setInterval(() => void recheck(), dependencies.intervalMs);
      // The transport keeps the process alive, not the status poll.
      timer.unref?.();
    },
    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      unsubscribeSource?.();
      unsubscribeSource = undefined;
      for (const unsubscribe of watchedAgents.values()) unsubscribe();
      watchedAgents.clear();
    },
  };
}
