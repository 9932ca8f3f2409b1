// mcp -> the shapes the tools take and answer, as zod schemas: the arguments every tool shares, and the
// JSON the core's `present…` functions make (the portal's API answers the same).
import * as z from 'zod';

export const environmentArgument = z
  .enum(['sandbox', 'production'])
  .describe('The environment to act in: `sandbox` (testing) or `production` (real contracts).');

export const integrationIdArgument = z.string().min(1).max(100).describe('An integration id, `int_…`.');

export const limitArgument = z
  .number()
  .int()
  .describe('How many to answer, from 1 to 100 (default 20).')
  .optional();

export const startingAfterArgument = z
  .string()
  .min(1)
  .max(100)
  .describe('The last id of the previous page, for the next page (newest first).')
  .optional();

const time = z.string().describe('A UTC date-time to the microsecond, such as 2026-11-21T09:30:00.123456Z.');
const timeOrNull = time.nullable();

export const organisationShape = z.object({ id: z.string(), name: z.string(), created_at: time });

export const integrationShape = z.object({
  id: z.string(),
  organisation_id: z.string(),
  type: z.literal('contract_reviews'),
  name: z.string(),
  created_at: time,
});

export const sandboxBudgetShape = z.object({
  organisation_id: z.string(),
  total: z.number().int(),
  used: z.number().int(),
  remaining: z.number().int(),
});

export const apiKeyShape = z.object({
  id: z.string(),
  name: z.string().nullable(),
  prefix: z.string(),
  environment: z.enum(['sandbox', 'production']),
  integration_id: z.string(),
  created_at: time,
  last_used_at: timeOrNull,
  revoked_at: timeOrNull,
});

export const webhookEndpointShape = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.string()),
  enabled: z.boolean(),
  environment: z.enum(['sandbox', 'production']),
  signing_secrets: z
    .number()
    .int()
    .describe('How many secrets sign its messages now (2 for 24 h after a rotation).'),
  created_at: time,
  updated_at: time,
});

export const webhookMessageShape = z.object({
  id: z.string().describe('`msg_…`, also the `webhook-id` header of every attempt.'),
  endpoint_id: z.string(),
  type: z.string(),
  test: z.boolean(),
  state: z.enum(['pending', 'delivered', 'failed']),
  round: z.number().int(),
  attempts_in_round: z.number().int(),
  next_attempt_at: timeOrNull,
  created_at: time,
});

export const deliveryAttemptShape = z.object({
  round: z.number().int(),
  number: z.number().int(),
  at: time,
  status: z.number().int().nullable().describe("The endpoint's HTTP status, or null when none came."),
  error: z.string().nullable(),
  duration_ms: z.number(),
  body: z.string().describe("At most 1 KiB of the endpoint's answer."),
});

export const apiRequestShape = z.object({
  id: z.string().describe('The `Service-Request-Id` of the call.'),
  time,
  method: z.string(),
  path: z.string(),
  status: z.number().int(),
  duration_ms: z.number(),
  environment: z.enum(['sandbox', 'production']),
  integration_id: z.string(),
});
