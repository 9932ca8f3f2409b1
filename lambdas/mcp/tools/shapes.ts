// mcp -> the arguments every tool shares, as zod schemas. What the tools answer is the core's
// (lambdas/core/shapes.ts): the same JSON as the portal's backend, defined once.
import * as z from 'zod/mini';
import { EnvironmentShape } from '../../core/shapes';

/** An argument with words for the model that calls the tool. */
export const described = <T extends z.ZodMiniType>(schema: T, description: string): T =>
  schema.check(z.describe(description)) as T;

/** A non-empty string of at most `max` characters. */
export const boundedString = (max: number) => z.string().check(z.minLength(1), z.maxLength(max));

export const environmentArgument = described(
  EnvironmentShape,
  'The environment to act in: `sandbox` (testing) or `production` (real contracts).',
);

export const integrationIdArgument = described(boundedString(100), 'An integration id, `int_…`.');

export const limitArgument = z.optional(
  described(z.int(), 'How many to answer, from 1 to 100 (default 20).'),
);

export const startingAfterArgument = z.optional(
  described(boundedString(100), 'The last id of the previous page, for the next page (newest first).'),
);
