export { CliError } from './cli-error.js';
export type { Command, CommandValues } from './command.js';
export { configFileName, loadConfig, type PatchbayConfig, patchbayConfigSchema } from './config.js';
export {
  type DiscoveredConnector,
  type DiscoverOptions,
  type Discovery,
  discoverConnectors,
  isV1Connector,
} from './discover-connectors.js';
export { type ExitCode, exitCodes } from './exit-codes.js';
export { globalOptions, type ParsedCommandLine, parseCommandLine } from './parse-command-line.js';
export { runCli } from './run-cli.js';
export { closeNames } from './suggest.js';
