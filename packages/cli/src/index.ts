export { CliError } from './cli-error.js';
export { loadConfig, type PatchbayConfig } from './config.js';
export {
  type DiscoveredConnector,
  type DiscoverOptions,
  type Discovery,
  discoverConnectors,
} from './discover-connectors.js';
export { type ExitCode, exitCodes } from './exit-codes.js';
export { runCli } from './run-cli.js';
