/**
 * Helpers the other Patchbay packages share with the gate (`@patchbay/mcp` maps effects to MCP
 * annotations and words thrown errors as the gate does; its logs go through the public
 * `createRedactingLogger`). Unstable: no semver promise, may change in any release. Applications use
 * the package root.
 */
export { annotationsForEffect } from './connector-agent.js';
export { errorMessage } from './gate-context.js';
export { JsonSchemaValidator, type ValidationResult } from './json-schema-validator.js';
export { redactPaths } from './redacting-logger.js';
