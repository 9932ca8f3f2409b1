// host -> the MCP SDK server's `@modelcontextprotocol/server/_shims` in a deployed function (aliased in
// lib/service-function.ts BUNDLE_SETTINGS): Node's, but with the SDK's own Cloudflare Workers JSON Schema
// validator as the default in place of Ajv (~150 KB of the mcp bundle). The server only validates JSON
// Schema for elicitation answers and `fromJsonSchema` tools, neither of which ours use; the tools check
// their input with their own zod schemas. Where it is reached, it still validates.

export { default as process } from 'node:process';
export { CfWorkerJsonSchemaValidator as DefaultJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
