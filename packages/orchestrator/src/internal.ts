/**
 * Helpers the other Patchbay packages share with the gate (`@patchbay/mcp` maps effects to MCP
 * annotations and redacts its logs with the gate's paths). Unstable: no semver promise, may change
 * in any release. Applications use the package root.
 */
export { annotationsForEffect } from './connector-agent.js';
export { JsonSchemaValidator, type ValidationResult } from './json-schema-validator.js';
export { redactPaths } from './observability.js';
