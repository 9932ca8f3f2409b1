// mcp -> what a tool is (decisions.md §10): a name, honest words for the model, an input schema it
// advertises and checks itself, an output schema, annotations, and the core function it runs for the
// person the access token names. Every answer is `structuredContent` with the same JSON as text; every
// refusal is `isError` with `{error:{code,message}}` in both.
import type { CallToolResult, StandardSchemaWithJSON, ToolAnnotations } from '@modelcontextprotocol/server';
import type * as z from 'zod';
import { isDependencyUnavailable, isServiceError, ServiceError } from '../../core/errors';
import { log } from '../../core/log';
import type { Environment } from '../../core/model';
import type { Directory } from '../../core/organisations';
import type { Services } from '../../core/services';

/** What the tools reach: the identity table's directory, and each environment's ports and settings. */
export interface McpWorkspace {
  directory: Directory;
  environments: Readonly<Record<Environment, Services>>;
}

/** One tool call: the workspace, and the person whose token it came with. */
export interface ToolContext {
  workspace: McpWorkspace;
  personId: string;
}

export interface Tool<Input extends z.ZodType = z.ZodType, Output extends z.ZodType = z.ZodType> {
  name: string;
  title: string;
  description: string;
  input: Input;
  output: Output;
  annotations: Omit<ToolAnnotations, 'title'>;
  run(context: ToolContext, input: z.output<Input>): Promise<z.input<Output>>;
}

/** Keeps each tool's input and output types tied to its own schemas. */
export const tool = <Input extends z.ZodType, Output extends z.ZodType>(
  definition: Tool<Input, Output>,
): Tool => definition as unknown as Tool;

/**
 * The schema the SDK advertises in `tools/list`, without its checking: an argument the schema refuses
 * would otherwise come back as the SDK's own text, not the service's `request_invalid`. The tool checks
 * its input itself (`callTool`).
 */
export const advertisedOnly = (schema: z.ZodType): StandardSchemaWithJSON => ({
  '~standard': {
    version: 1,
    vendor: 'service',
    validate: (value: unknown) => ({ value }),
    jsonSchema: schema['~standard'].jsonSchema,
  },
});

const answer = (structured: Record<string, unknown>, isError: boolean): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(structured) }],
  structuredContent: structured,
  ...(isError && { isError: true }),
});

/** What is wrong with the arguments, said as a person would fix them: `events.0: …; url: …`. */
const inputProblems = (error: z.ZodError): string =>
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
  const input = definition.input.safeParse(args ?? {});
  if (!input.success)
    return answer(
      new ServiceError(
        'request_invalid',
        `Invalid arguments for ${definition.name}: ${inputProblems(input.error)}`,
      ).toJSON(),
      true,
    );
  try {
    return answer((await definition.run(context, input.data)) as Record<string, unknown>, false);
  } catch (error) {
    const refusal = asServiceError(error);
    const { code, message } = refusal.toJSON().error;
    return answer({ error: { code, message } }, true);
  }
};
