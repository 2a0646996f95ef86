export {
  createJsonSchemaCompiler,
  type JsonSchemaCheck,
  type JsonSchemaCompiler,
  type JsonSchemaDialect,
  type JsonSchemaIssue,
  type JsonSchemaObject,
  jsonSchemaDialect,
} from './json-schema-compiler.js';
