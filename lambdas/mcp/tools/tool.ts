// mcp -> what a tool is (decisions.md §10): a name, honest words for the model, an input schema it
// advertises and checks itself, an output schema, annotations, and the core function it runs for the
// person the access token names. Every answer is `structuredContent` with the same JSON as text; every
// refusal is `isError` with `{error:{code,message}}` as its text alone: no `structuredContent`, which
// clients of the MCP SDK 1.x check against the tool's output schema, errors included, and reject.
// A call naming an environment the person's grant does not hold is refused before anything else.
import type { CallToolResult, StandardSchemaWithJSON, ToolAnnotations } from '@modelcontextprotocol/server';
import { en } from 'zod/locales';
import * as z from 'zod/mini';
import { isDependencyUnavailable, isServiceError, ServiceError } from '../../core/errors';
import { log } from '../../core/log';
import { ENVIRONMENTS, type Environment } from '../../core/model';
import type { Directory } from '../../core/organisations';
import type { CommonPorts, Ports } from '../../core/ports';
import type { Services } from '../../core/services';

/**
 * The ports a tool may call in each environment: the common ones, and the delivery queue (a test event
 * and a redelivery hand their message on). A tool calling any other fails to compile.
 */
export type McpPorts = CommonPorts & Pick<Ports, 'deliveryQueue'>;

// zod/mini loads no words for its messages; a refused argument is told in English (`inputProblems`).
// English alone, by name: `z.locales.en` makes esbuild keep the namespace, all 50 locales (~260 KB).
z.config(en());

/** What the tools reach: the identity table's directory, and each environment's ports and settings. */
export interface McpWorkspace {
  directory: Directory;
  environments: Readonly<Record<Environment, Services<McpPorts>>>;
}

/** One tool call: the workspace, and the person whose token it came with and what their grant allows. */
export interface ToolContext {
  workspace: McpWorkspace;
  personId: string;
  /** The environments the person let this client change (the access token's `environments`). */
  environments: readonly Environment[];
}

export interface Tool<
  Input extends z.ZodMiniType = z.ZodMiniType,
  Output extends z.ZodMiniType = z.ZodMiniType,
> {
  name: string;
  title: string;
  description: string;
  input: Input;
  output: Output;
  annotations: Omit<ToolAnnotations, 'title'>;
  call(context: ToolContext, input: z.output<Input>): Promise<z.input<Output>>;
}

/** Keeps each tool's input and output types tied to its own schemas. */
export const tool = <Input extends z.ZodMiniType, Output extends z.ZodMiniType>(
  definition: Tool<Input, Output>,
): Tool => definition as unknown as Tool;

/**
 * The JSON Schema converter the SDK asks of a schema for `tools/list`. zod/mini's schemas, unlike the
 * classic API's, carry none (the classic API is the 450 KB that interface-schemas.ts keeps out of the
 * functions), so it is made here from `toJSONSchema`, which both APIs share.
 */
const jsonSchemaOf = (schema: z.ZodMiniType): StandardSchemaWithJSON['~standard']['jsonSchema'] => {
  const convert =
    (io: 'input' | 'output') =>
    (options: { target?: string; libraryOptions?: Record<string, unknown> } = {}) =>
      z.toJSONSchema(schema, { ...options.libraryOptions, target: options.target, io }) as Record<
        string,
        unknown
      >;
  return { input: convert('input'), output: convert('output') };
};

/** A tool's output schema as the SDK takes it: checked as zod checks it, advertised as JSON Schema. */
export const outputSchemaOf = (schema: z.ZodMiniType): StandardSchemaWithJSON => ({
  '~standard': { ...schema['~standard'], jsonSchema: jsonSchemaOf(schema) },
});

/**
 * The schema the SDK advertises in `tools/list`, without its checking: an argument the schema refuses
 * would otherwise come back as the SDK's own text, not the service's `request_invalid`. The tool checks
 * its input itself (`callTool`).
 */
export const advertisedOnly = (schema: z.ZodMiniType): StandardSchemaWithJSON => ({
  '~standard': {
    version: 1,
    vendor: 'service',
    validate: (value: unknown) => ({ value }),
    jsonSchema: jsonSchemaOf(schema),
  },
});

const answer = (structured: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(structured) }],
  structuredContent: structured,
});

const refuse = (error: ServiceError): CallToolResult => {
  const { code, message } = error.toJSON().error;
  return { content: [{ type: 'text', text: JSON.stringify({ error: { code, message } }) }], isError: true };
};

/** The environment the arguments name, when they name one of the service's. */
const environmentNamed = (args: unknown): Environment | undefined => {
  const named =
    typeof args === 'object' && args !== null ? (args as Record<string, unknown>).environment : null;
  return ENVIRONMENTS.find((environment) => environment === named);
};

/** What is wrong with the arguments, said as a person would fix them: `events.0: …; url: …`. */
const inputProblems = (error: z.core.$ZodError): string =>
  error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
    .join('; ');

const asServiceError = (error: unknown): ServiceError => {
  if (isServiceError(error)) return error;
  if (isDependencyUnavailable(error))
    return new ServiceError(
      'service_unavailable',
      'A dependency of the service is unavailable; try again soon.',
    );
  log.error('MCP tool fault', { error });
  return new ServiceError('internal_error', 'The service failed to do this; try again later.');
};

/** Runs a tool for the caller: its arguments checked, its answer or its refusal in the shape §10 fixes. */
export const callTool = async (
  definition: Tool,
  context: ToolContext,
  args: unknown,
): Promise<CallToolResult> => {
  const environment = environmentNamed(args);
  if (environment !== undefined && !context.environments.includes(environment))
    return refuse(
      new ServiceError(
        'environment_not_allowed',
        `You did not let this application change your ${environment} environment. To allow it, disconnect the application in the portal and connect it again, ticking ${environment === 'sandbox' ? 'Sandbox' : 'Production'}.`,
      ),
    );
  const input = z.safeParse(definition.input, args ?? {});
  if (!input.success)
    return refuse(
      new ServiceError(
        'request_invalid',
        `Invalid arguments for ${definition.name}: ${inputProblems(input.error)}`,
      ),
    );
  try {
    return answer((await definition.call(context, input.data)) as Record<string, unknown>);
  } catch (error) {
    return refuse(asServiceError(error));
  }
};
