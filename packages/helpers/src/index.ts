// What connector implementations and the core call, kept apart from the contract they conform to
// (@patchbay/connector): the HTTP client, canonical JSON, origin binding, argument limits, tool
// availability, the status precedence rule, and the small text rules around tools and credentials.
export { exceedsDepth, maxArgumentDepth, tooDeepMessage } from './argument-limits.js';
export {
  type AvailabilityTool,
  type SetupUrls,
  type ToolAvailability,
  toolAvailability,
  type UnavailableReason,
} from './availability.js';
export { canonicalJson } from './canonical-json.js';
export { displayIdentity, secretCredentialValues } from './credential-values.js';
export {
  createHttpClient,
  type HttpClient,
  type HttpClientOptions,
  type HttpRequest,
  type HttpResult,
  isLoopbackHostname,
  type MapError,
} from './http.js';
export { invokeTool } from './invoke-tool.js';
export { bindConnectionsToOrigins, type ConnectorOrigins, originMismatch } from './origin-binding.js';
export { expandScopes } from './scopes.js';
export { statusEntriesFromState, unknownConnectorIds } from './status-rules.js';
export { type DescribedTool, toolDescriptionForModel } from './tool-description.js';
