// adapter -> contract reviews and their versions. A first send or a new version is one transaction:
// the review, the version, its processing run, the sandbox budget use and the idempotent answer.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '../../core/back-office/audit';
import { ConcurrentChange, notFound, ServiceError } from '../../core/errors';
import type { ServiceEvent } from '../../core/events';
import type { ContractReview, ContractVersion, Environment, Micros, Page, Scope } from '../../core/model';
import type {
  Clock,
  ContractReviewStore,
  IdempotencyCompletion,
  NewContractReview,
  NewContractVersion,
  WorkflowRun,
} from '../../core/ports';
import { DEFAULT_SANDBOX_BUDGET } from '../../core/sandbox-budget';
import { auditWrites } from './audit-log';
import { claimLost, idempotencyCompletionWrite } from './idempotency-store';
import {
  contractReviewItem,
  contractVersionItem,
  eventWrites,
  indexPosition,
  runWrites,
  toContractReview,
  toContractVersion,
  toSandboxBudget,
} from './items';
import { byCreation, keys } from './keys';
import { getItem, queryNewestFirst } from './table';
import { LIST_INDEX } from './table-schema';
import { type GuardedWrite, transactWrite } from './transactions';

export class DynamoDbContractReviewStore implements ContractReviewStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
    private readonly environment: Environment,
  ) {}

  async create({ review, version, idempotency }: NewContractReview): Promise<void> {
    this.checkEnvironment(review.scope);
    const table = this.tableName;
    const reference = review.externalReference;
    // Array order is the order of precedence of the errors (decisions.md §1: references last,
    // external_reference_exists before budget_used).
    await transactWrite(this.doc, [
      {
        write: {
          Put: {
            TableName: table,
            Item: {
              ...keys.externalReference(review.scope.integrationId, reference),
              type: 'contract_review_reference',
              contract_review_id: review.id,
              // Found by the back office's search across integrations (decisions.md §11).
              [LIST_INDEX.partitionKey]: keys.externalReferenceSearch(reference),
              [LIST_INDEX.sortKey]: byCreation(review.createdAt, review.id),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        onConditionFailed: () =>
          new ServiceError(
            'external_reference_exists',
            `A contract review with external_reference ${JSON.stringify(reference)} already exists; send a changed contract as a new version of it (POST /v1/contract-reviews/{id}/versions).`,
          ),
      },
      ...this.budgetUse(review.scope),
      {
        write: {
          Put: {
            TableName: table,
            Item: contractReviewItem(review),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      },
      ...this.versionWrites(review.scope, version),
      this.completion(idempotency),
    ]);
  }

  async addVersion({ review, version, basedOnVersion, idempotency }: NewContractVersion): Promise<void> {
    this.checkEnvironment(review.scope);
    await transactWrite(this.doc, [
      this.putReviewIf(review, 'version = :expected', basedOnVersion, () => this.staleVersion(review.id)),
      ...this.budgetUse(review.scope),
      ...this.versionWrites(review.scope, version),
      this.completion(idempotency),
    ]);
  }

  async update(
    review: ContractReview,
    expectedUpdatedAt: Micros,
    events: ServiceEvent[],
    runs: WorkflowRun[] = [],
    audit: AuditEntry[] = [],
  ): Promise<void> {
    this.checkEnvironment(review.scope);
    await transactWrite(this.doc, [
      this.putReviewIf(
        review,
        'updated_at = :expected',
        expectedUpdatedAt,
        () => new ConcurrentChange(review.id),
      ),
      ...eventWrites(this.tableName, events),
      ...runWrites(this.tableName, runs, this.clock.now()),
      ...auditWrites(this.tableName, audit),
    ]);
  }

  /** Replaces an existing review if `condition` (on `:expected`) still holds, else `onConditionFailed`. */
  private putReviewIf(
    review: ContractReview,
    condition: string,
    expected: number,
    onConditionFailed: () => Promise<Error> | Error,
  ): GuardedWrite {
    return {
      write: {
        Put: {
          TableName: this.tableName,
          Item: contractReviewItem(review),
          ConditionExpression: `attribute_exists(pk) AND ${condition}`,
          ExpressionAttributeValues: { ':expected': expected },
        },
      },
      onConditionFailed,
    };
  }

  async get(id: string): Promise<ContractReview | null> {
    const item = await getItem(this.doc, this.tableName, keys.contractReview(id));
    return item ? toContractReview(item) : null;
  }

  async getVersion(id: string, version: number): Promise<ContractVersion | null> {
    const item = await getItem(this.doc, this.tableName, keys.contractVersion(id, version));
    return item ? toContractVersion(item) : null;
  }

  async findByExternalReference(scope: Scope, externalReference: string): Promise<ContractReview | null> {
    const reference = await getItem(
      this.doc,
      this.tableName,
      keys.externalReference(scope.integrationId, externalReference),
    );
    const id = reference?.contract_review_id;
    return typeof id === 'string' ? this.get(id) : null;
  }

  async list(
    scope: Scope,
    options: { limit: number; startingAfter?: ContractReview },
  ): Promise<Page<ContractReview>> {
    const page = await queryNewestFirst(this.doc, this.tableName, {
      index: LIST_INDEX,
      partition: keys.contractReviewList(scope.integrationId),
      limit: options.limit,
      after: options.startingAfter && indexPosition(contractReviewItem(options.startingAfter), LIST_INDEX),
    });
    return { items: page.items.map(toContractReview), hasMore: page.hasMore };
  }

  /** The version item and its processing run, which a later step drives; neither is ever overwritten. */
  private versionWrites(scope: Scope, version: ContractVersion): GuardedWrite[] {
    return [
      {
        write: {
          Put: {
            TableName: this.tableName,
            Item: contractVersionItem(version),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      },
      ...runWrites(
        this.tableName,
        [
          {
            kind: 'contract',
            environment: scope.environment,
            contractReviewId: version.contractReviewId,
            version: version.version,
          },
        ],
        this.clock.now(),
      ),
    ];
  }

  /** In the sandbox every accepted PDF counts against the organisation's budget, checked in the same step. */
  private budgetUse(scope: Scope): GuardedWrite[] {
    if (this.environment !== 'sandbox') return [];
    return [
      {
        write: {
          Update: {
            TableName: this.tableName,
            Key: keys.sandboxBudget(scope.organisationId),
            // The first PDF makes the item with the default budget (sandbox-budget-store.ts).
            UpdateExpression:
              'SET #type = :type, sandbox_budget = if_not_exists(sandbox_budget, :default), sandbox_used = if_not_exists(sandbox_used, :zero) + :one',
            ConditionExpression: 'attribute_not_exists(sandbox_used) OR sandbox_used < sandbox_budget',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: {
              ':type': 'sandbox_budget',
              ':default': DEFAULT_SANDBOX_BUDGET,
              ':zero': 0,
              ':one': 1,
            },
          },
        },
        onConditionFailed: () => this.budgetUsed(scope.organisationId),
      },
    ];
  }

  private completion(idempotency: IdempotencyCompletion): GuardedWrite {
    return {
      write: idempotencyCompletionWrite(this.tableName, idempotency),
      onConditionFailed: () => claimLost(idempotency.key),
    };
  }

  private async budgetUsed(organisationId: string): Promise<Error> {
    const item = await getItem(this.doc, this.tableName, keys.sandboxBudget(organisationId));
    const { total } = toSandboxBudget(organisationId, item, DEFAULT_SANDBOX_BUDGET);
    return new ServiceError(
      'budget_used',
      `The sandbox budget of ${total} processed PDF${total === 1 ? '' : 's'} is used; contact the service operator to raise it.`,
    );
  }

  private async staleVersion(id: string): Promise<Error> {
    const latest = await this.get(id);
    if (!latest) return notFound('contract review');
    return new ServiceError(
      'stale_version',
      `Version ${latest.version} is the latest version of this contract review; send based_on_version ${latest.version}.`,
    );
  }

  private checkEnvironment(scope: Scope): void {
    if (scope.environment !== this.environment) {
      throw new Error(`a ${scope.environment} record was sent to the ${this.environment} store`);
    }
  }
}
