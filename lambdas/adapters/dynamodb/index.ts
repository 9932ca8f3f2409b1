// adapter -> the DynamoDB implementations of core's stores, built together for one environment's table.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Environment } from '../../core/model';
import type { Clock, Ports } from '../../core/ports';
import { DynamoDbApiKeyStore } from './api-key-store';
import { DynamoDbApiRequestStore } from './api-request-store';
import { DynamoDbAuditLog } from './audit-log';
import { DynamoDbClientStore } from './client-store';
import { DynamoDbContractReviewStore } from './contract-review-store';
import { DynamoDbEventOutbox } from './event-outbox';
import { DynamoDbIdempotencyStore } from './idempotency-store';
import { DynamoDbOnboardingStore } from './onboarding-store';
import { DynamoDbOrganisationNameStore } from './organisation-name-store';
import { DynamoDbRateLimiter } from './rate-limiter';
import { DynamoDbRenderSlots } from './render-slots';
import { DynamoDbReviewDeskStore } from './review-desk-store';
import { DynamoDbRunStore } from './run-store';
import { DynamoDbSandboxBudgetStore } from './sandbox-budget-store';
import { DynamoDbWebhookEndpointStore } from './webhook-endpoint-store';
import { DynamoDbWebhookMessageStore } from './webhook-message-store';

export { DynamoDbApiKeyStore } from './api-key-store';
export { DynamoDbApiRequestStore } from './api-request-store';
export { DynamoDbClientStore } from './client-store';
export { DynamoDbContractReviewStore } from './contract-review-store';
export { createDocumentClient } from './document-client';
export { DynamoDbEventOutbox } from './event-outbox';
export { DynamoDbIdempotencyStore } from './idempotency-store';
export { DynamoDbOnboardingStore } from './onboarding-store';
export { DynamoDbOrganisationStore } from './organisation-store';
export { DynamoDbPeopleStore } from './people-store';
export { DynamoDbRateLimiter } from './rate-limiter';
export { DynamoDbRunStore } from './run-store';
export { DynamoDbSandboxBudgetStore } from './sandbox-budget-store';
export { DynamoDbStaffStore } from './staff-store';
export { DynamoDbWebhookEndpointStore } from './webhook-endpoint-store';
export { DynamoDbWebhookMessageStore } from './webhook-message-store';

export type DynamoDbStores = Pick<
  Ports,
  | 'apiKeys'
  | 'sandboxBudgets'
  | 'organisationNames'
  | 'contractReviews'
  | 'onboardings'
  | 'clients'
  | 'idempotency'
  | 'rateLimiter'
  | 'renderSlots'
  | 'outbox'
  | 'runs'
  | 'webhookEndpoints'
  | 'webhookMessages'
  | 'apiRequests'
  | 'backOffice'
>;

/** Every store of one environment, all in that environment's one table. */
export const createDynamoDbStores = (
  doc: DynamoDBDocumentClient,
  tableName: string,
  clock: Clock,
  environment: Environment,
): DynamoDbStores => ({
  apiKeys: new DynamoDbApiKeyStore(doc, tableName),
  sandboxBudgets: new DynamoDbSandboxBudgetStore(doc, tableName),
  organisationNames: new DynamoDbOrganisationNameStore(doc, tableName),
  contractReviews: new DynamoDbContractReviewStore(doc, tableName, clock, environment),
  onboardings: new DynamoDbOnboardingStore(doc, tableName, clock),
  clients: new DynamoDbClientStore(doc, tableName, clock),
  idempotency: new DynamoDbIdempotencyStore(doc, tableName, clock),
  rateLimiter: new DynamoDbRateLimiter(doc, tableName, clock),
  renderSlots: new DynamoDbRenderSlots(doc, tableName, clock),
  outbox: new DynamoDbEventOutbox(doc, tableName),
  runs: new DynamoDbRunStore(doc, tableName, clock),
  webhookEndpoints: new DynamoDbWebhookEndpointStore(doc, tableName),
  webhookMessages: new DynamoDbWebhookMessageStore(doc, tableName),
  apiRequests: new DynamoDbApiRequestStore(doc, tableName),
  backOffice: backOfficeStores(doc, tableName),
});

const backOfficeStores = (doc: DynamoDBDocumentClient, tableName: string): DynamoDbStores['backOffice'] => {
  const desk = new DynamoDbReviewDeskStore(doc, tableName);
  return { desk, search: desk, audit: new DynamoDbAuditLog(doc, tableName) };
};
