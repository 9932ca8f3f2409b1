// unit -> the developer account's answers have one definition (lambdas/core/shapes.ts): what each core
// `present…` function makes parses with its schema, the MCP tools answer those schemas, and the portal's
// pages take them as types only (so no zod in the portal's bundle).
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import * as z from 'zod/mini';
import { presentApiKey } from '../../lambdas/core/api-keys';
import { listEventTypes } from '../../lambdas/core/events';
import type { Micros, Scope } from '../../lambdas/core/model';
import { presentIntegration, presentOrganisation } from '../../lambdas/core/organisations';
import { presentApiRequest } from '../../lambdas/core/request-history/list';
import { presentSandboxBudget } from '../../lambdas/core/sandbox-budget';
import * as shapes from '../../lambdas/core/shapes';
import { presentWebhookEndpoint } from '../../lambdas/core/webhooks/endpoints';
import { presentDeliveryAttempt, presentWebhookMessage } from '../../lambdas/core/webhooks/messages';
import { MCP_TOOLS } from '../../lambdas/mcp/tools';
import { outputSchemaOf } from '../../lambdas/mcp/tools/tool';

const T = 1_795_000_000_123_456 as Micros;
const scope: Scope = { organisationId: 'org_1', integrationId: 'int_1', environment: 'production' };

/** The schema's complaints about `value`: none when it parses. */
const problems = (schema: z.ZodMiniType, value: unknown): string[] => {
  const result = z.safeParse(schema, value);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

const message = presentWebhookMessage({
  id: 'msg_1',
  eventId: null,
  endpointId: 'whe_1',
  scope,
  type: 'test',
  occurredAt: T,
  data: '{}',
  test: true,
  state: 'failed',
  round: 2,
  attemptsInRound: 8,
  nextAttemptAt: null,
  createdAt: T,
} as Parameters<typeof presentWebhookMessage>[0]);
const attempt = presentDeliveryAttempt({
  number: 1,
  round: 1,
  at: T,
  status: null,
  error: 'connection refused',
  durationMs: 12,
  body: '',
});

test.each<[string, z.ZodMiniType, unknown]>([
  [
    'organisation',
    shapes.OrganisationShape,
    presentOrganisation({ id: 'org_1', name: 'Harbour', ownerId: 'per_1', createdAt: T }),
  ],
  [
    'integration',
    shapes.IntegrationShape,
    presentIntegration({
      id: 'int_1',
      organisationId: 'org_1',
      type: 'contract_reviews',
      name: 'App',
      createdAt: T,
    }),
  ],
  [
    'sandbox budget',
    shapes.SandboxBudgetShape,
    presentSandboxBudget({ organisationId: 'org_1', total: 3, used: 5 }),
  ],
  [
    'API key',
    shapes.ApiKeyShape,
    presentApiKey({
      id: 'key_1',
      organisationId: 'org_1',
      integrationId: 'int_1',
      environment: 'sandbox',
      hash: 'ab',
      prefix: 'svc_test_ab',
      name: null,
      createdAt: T,
      lastUsedAt: T,
      revokedAt: null,
    }),
  ],
  ['event types', shapes.listOf(shapes.EventTypeShape), listEventTypes()],
  [
    'webhook endpoint',
    shapes.WebhookEndpointShape,
    presentWebhookEndpoint(
      {
        id: 'whe_1',
        scope,
        url: 'https://example.com/hook',
        subscriptions: { 'contract-reviews.publication.published': T },
        secrets: [{ secret: 'whsec_x', createdAt: T, expiresAt: null }],
        enabled: true,
        createdAt: T,
        updatedAt: T,
      },
      T,
    ),
  ],
  ['webhook message', shapes.WebhookMessageShape, message],
  ['delivery attempt', shapes.DeliveryAttemptShape, attempt],
  [
    'webhook message in full',
    shapes.WebhookMessageDetailShape,
    { ...message, envelope: {}, attempts: [attempt] },
  ],
  [
    'API request',
    shapes.ApiRequestShape,
    presentApiRequest({
      id: 'req_1',
      time: T,
      method: 'GET',
      path: '/v1/clients',
      status: 200,
      durationMs: 3,
      environment: 'production',
      integrationId: 'int_1',
    }),
  ],
])('what the core presents as a %s parses with its schema', (_name, schema, presented) => {
  expect(problems(schema, presented)).toEqual([]);
});

test('a schema refuses what its present… function would not make', () => {
  const organisation = presentOrganisation({ id: 'org_1', name: 'Harbour', ownerId: 'per_1', createdAt: T });
  expect(problems(shapes.OrganisationShape, { ...organisation, created_at: null })).toEqual([
    'created_at: Invalid input: expected string, received null',
  ]);
});

test('every MCP tool advertises an output schema, and checks an answer by it', () => {
  for (const tool of MCP_TOOLS) {
    const schema = outputSchemaOf(tool.output)['~standard'];
    expect([tool.name, schema.jsonSchema.output({ target: 'draft-2020-12' }).type]).toEqual([
      tool.name,
      'object',
    ]);
    expect([tool.name, 'issues' in (schema.validate('not an object') as object)]).toEqual([tool.name, true]);
  }
});

test.each(['frontend/portal/app/types.ts', 'frontend/back-office/app/types.ts'])(
  "%s takes the core's shapes as types only, under the core's names",
  (file) => {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    const fromCore = source.statements.filter(
      (s): s is ts.ImportDeclaration | ts.ExportDeclaration =>
        (ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) &&
        s.moduleSpecifier !== undefined &&
        ts.isStringLiteral(s.moduleSpecifier) &&
        s.moduleSpecifier.text.includes('lambdas/'),
    );
    expect(fromCore.length).toBeGreaterThan(0);
    const valueImports = fromCore
      .filter((s) => (ts.isImportDeclaration(s) ? !s.importClause?.isTypeOnly : !s.isTypeOnly))
      .map((s) => s.getText(source));
    expect(valueImports).toEqual([]);
    // No second name for a core shape (an `Environment` beside the core's own): the pages use the core's.
    const redeclared = source.statements
      .filter((s) => ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s))
      .map((s) => (s as ts.TypeAliasDeclaration | ts.InterfaceDeclaration).name.text);
    const renamed = fromCore.flatMap((s) =>
      ts.isExportDeclaration(s) && s.exportClause && ts.isNamedExports(s.exportClause)
        ? s.exportClause.elements.filter((e) => e.propertyName).map((e) => e.name.text)
        : [],
    );
    expect([...redeclared, ...renamed]).toEqual([]);
  },
);
