// adapter -> the back office's review desk in an environment's table: the queue of requested reviews
// (a sparse second index the contract review item is in while its lawyer review is requested), and
// one item per review beside it holding who is on it and the lawyer's draft, each change written with
// its audit entry in one transaction.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '../../core/back-office/audit';
import { ServiceError } from '../../core/errors';
import type { ContractReview, Micros, Page } from '../../core/model';
import type {
  ContractSearch,
  ReviewDesk,
  ReviewDeskStore,
  ReviewQueueSummary,
} from '../../core/ports/back-office';
import { auditWrites } from './audit-log';
import { contractReviewItem, type Item, indexPosition, toContractReview } from './items';
import { keys } from './keys';
import { countUpTo, getItem, getItems, queryNewestFirst, queryOldestFirst } from './table';
import { LIST_INDEX, SECOND_INDEX } from './table-schema';
import { transactWrite } from './transactions';

const toReviewDesk = (item: Item): ReviewDesk => ({
  contractReviewId: item.contract_review_id as string,
  assignee: (item.assignee as string | undefined) ?? null,
  assignedAt: (item.assigned_at as Micros | undefined) ?? null,
  draft: (item.draft as string | undefined) ?? null,
  draftRevision: (item.draft_revision as number | undefined) ?? 0,
  draftVersion: (item.draft_version as number | undefined) ?? null,
  draftSavedBy: (item.draft_saved_by as string | undefined) ?? null,
  draftSavedAt: (item.draft_saved_at as Micros | undefined) ?? null,
});

export class DynamoDbReviewDeskStore implements ReviewDeskStore, ContractSearch {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async queue(options: { limit: number; after?: ContractReview }): Promise<Page<ContractReview>> {
    const items = await queryOldestFirst(this.doc, this.tableName, {
      index: SECOND_INDEX,
      partition: keys.reviewQueue,
      limit: options.limit + 1,
      after: options.after && indexPosition(contractReviewItem(options.after), SECOND_INDEX),
    });
    return {
      items: items.slice(0, options.limit).map(toContractReview),
      hasMore: items.length > options.limit,
    };
  }

  async summary(upTo: number): Promise<ReviewQueueSummary> {
    const [counted, newest] = await Promise.all([
      countUpTo(this.doc, this.tableName, SECOND_INDEX, keys.reviewQueue, upTo),
      queryNewestFirst(this.doc, this.tableName, {
        index: SECOND_INDEX,
        partition: keys.reviewQueue,
        limit: 1,
      }),
    ]);
    const [item] = newest.items;
    return { ...counted, newest: item ? toContractReview(item) : null };
  }

  async byExternalReference(externalReference: string, limit: number): Promise<string[]> {
    const page = await queryNewestFirst(this.doc, this.tableName, {
      index: LIST_INDEX,
      partition: keys.externalReferenceSearch(externalReference),
      limit,
    });
    return page.items.map((item) => item.contract_review_id as string);
  }

  async get(contractReviewId: string): Promise<ReviewDesk | null> {
    const item = await getItem(this.doc, this.tableName, keys.reviewDesk(contractReviewId));
    return item ? toReviewDesk(item) : null;
  }

  async getMany(contractReviewIds: readonly string[]): Promise<ReviewDesk[]> {
    const items = await getItems(this.doc, this.tableName, contractReviewIds.map(keys.reviewDesk));
    return items.map(toReviewDesk);
  }

  async assign(contractReviewId: string, assignee: string, at: Micros, audit: AuditEntry): Promise<void> {
    await transactWrite(this.doc, [
      {
        write: {
          Update: {
            TableName: this.tableName,
            Key: keys.reviewDesk(contractReviewId),
            UpdateExpression:
              'SET #type = :type, contract_review_id = :id, assignee = :assignee, assigned_at = :at',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: {
              ':type': 'review_desk',
              ':id': contractReviewId,
              ':assignee': assignee,
              ':at': at,
            },
          },
        },
      },
      ...auditWrites(this.tableName, [audit]),
    ]);
  }

  async saveDraft(desk: ReviewDesk, basedOnRevision: number, audit: AuditEntry): Promise<void> {
    const id = desk.contractReviewId;
    await transactWrite(this.doc, [
      {
        write: {
          Update: {
            TableName: this.tableName,
            Key: keys.reviewDesk(id),
            // Only the draft's attributes: an assignment meanwhile is no conflict.
            UpdateExpression:
              'SET #type = :type, contract_review_id = :id, draft = :draft, draft_revision = :revision, draft_version = :version, draft_saved_by = :by, draft_saved_at = :at',
            ConditionExpression:
              basedOnRevision === 0 ? 'attribute_not_exists(draft_revision)' : 'draft_revision = :basedOn',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: {
              ':type': 'review_desk',
              ':id': id,
              ':draft': desk.draft,
              ':revision': basedOnRevision + 1,
              ':version': desk.draftVersion,
              ':by': desk.draftSavedBy,
              ':at': desk.draftSavedAt,
              ...(basedOnRevision !== 0 && { ':basedOn': basedOnRevision }),
            },
          },
        },
        onConditionFailed: async () => {
          const stored = await this.get(id);
          return new ServiceError(
            'draft_conflict',
            `The draft was saved by ${stored?.draftSavedBy ?? 'someone else'} since you opened it (revision ${stored?.draftRevision ?? 0}, yours was based on ${basedOnRevision}); nothing was overwritten: copy your text, reload, and save again.`,
          );
        },
      },
      ...auditWrites(this.tableName, [audit]),
    ]);
  }
}
