export {
  defaultSessionIdleTimeoutMs,
  defaultSessionMaxAgeMs,
  type SessionEnd,
} from './server/access.js';
export type {
  ConnectOutcome,
  ConnectorView,
  ConsoleBackend,
  McpServerView,
  TurnContextView,
} from './server/backend.js';
export { type ConsoleOptions, type RunningConsole, startConsole } from './server/console-server.js';
export type { LiveEvent, RecordedDecision } from './server/live-feed.js';
