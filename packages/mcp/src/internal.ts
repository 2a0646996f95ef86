/**
 * `@patchbay/mcp/internal`: helpers the `patchbay` CLI shares with this package. Not a public API:
 * it changes without notice.
 * @module
 */
export { setupCommandFor } from './client/oauth-provider.js';
export { sharedToolNameMessage } from './client/shared-tool-name.js';
export { ownerCandidates, startToolOwner, type ToolOwnerSearch } from './client/tool-owner.js';
export { screenUpstreamTools } from './client/upstream-tool-limits.js';
