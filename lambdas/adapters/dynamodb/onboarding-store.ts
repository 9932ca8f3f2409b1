// adapter -> onboardings: each under its caller's unique reference, reachable from every session token
// issued for it; a submission replaces the onboarding and upserts its clients together, with its events
// and the form's sealed answers (kept apart, under ONBANSWERS#, so reading an onboarding never reads them):
// the latest submission's with the key of the browser that sent it, and each browser's draft on its own.
import { type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditEntry } from '../../core/back-office/audit';
import { ConcurrentChange, notFound } from '../../core/errors';
import type { ServiceEvent } from '../../core/events';
import type { Client, Micros, Onboarding, Page, Scope } from '../../core/model';
import type { Clock, OnboardingStore, SealedAnswers, SubmittedAnswers, WorkflowRun } from '../../core/ports';
import { auditWrites } from './audit-log';
import {
  clientItem,
  eventWrites,
  type Item,
  indexPosition,
  onboardingItem,
  runWrites,
  toOnboarding,
} from './items';
import { keys } from './keys';
import { getItem, queryOldestFirst } from './table';
import { LIST_INDEX } from './table-schema';
import { type GuardedWrite, transactWrite } from './transactions';

/** Raised inside `open` when the reference is already taken. */
class ReferenceTaken extends Error {}

export class DynamoDbOnboardingStore implements OnboardingStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async open(onboarding: Onboarding, sessionTokenHash: string): Promise<Onboarding> {
    const table = this.tableName;
    try {
      await transactWrite(this.doc, [
        {
          write: {
            Put: {
              TableName: table,
              Item: {
                ...keys.onboardingReference(onboarding.scope.integrationId, onboarding.reference),
                type: 'onboarding_reference',
                onboarding_id: onboarding.id,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          onConditionFailed: () => new ReferenceTaken(),
        },
        {
          write: {
            Put: {
              TableName: table,
              Item: onboardingItem(onboarding),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        },
        { write: { Put: { TableName: table, Item: this.tokenItem(sessionTokenHash, onboarding.id) } } },
      ]);
      return onboarding;
    } catch (error) {
      if (!(error instanceof ReferenceTaken)) throw error;
    }
    // The reference is taken: the same onboarding answers, reachable from this token too.
    const existing = await this.findByReference(onboarding.scope, onboarding.reference);
    if (!existing) throw new Error(`onboarding reference ${onboarding.reference} points to no onboarding`);
    await this.doc.send(
      new PutCommand({ TableName: table, Item: this.tokenItem(sessionTokenHash, existing.id) }),
    );
    return existing;
  }

  async get(id: string): Promise<Onboarding | null> {
    const item = await getItem(this.doc, this.tableName, keys.onboarding(id));
    return item ? toOnboarding(item) : null;
  }

  async findByReference(scope: Scope, reference: string): Promise<Onboarding | null> {
    const item = await getItem(
      this.doc,
      this.tableName,
      keys.onboardingReference(scope.integrationId, reference),
    );
    return this.follow(item);
  }

  async findBySessionTokenHash(hash: string): Promise<Onboarding | null> {
    return this.follow(await getItem(this.doc, this.tableName, keys.sessionToken(hash)));
  }

  async saveSubmission(
    onboarding: Onboarding,
    clients: Client[],
    events: ServiceEvent[],
    { answers: submittedAnswers, runs = [] }: { answers?: SubmittedAnswers; runs?: WorkflowRun[] } = {},
  ): Promise<void> {
    const answers: GuardedWrite[] =
      submittedAnswers === undefined
        ? []
        : [
            {
              write: {
                Update: {
                  TableName: this.tableName,
                  Key: keys.onboardingAnswers(onboarding.id),
                  UpdateExpression: `SET #type = :type, onboarding_id = :id, submitted = :sealed, submitted_saved_at = :at${
                    submittedAnswers.by === null ? ' REMOVE submitted_by' : ', submitted_by = :by'
                  }`,
                  ExpressionAttributeNames: { '#type': 'type' },
                  ExpressionAttributeValues: {
                    ':type': 'onboarding_answers',
                    ':id': onboarding.id,
                    ':sealed': submittedAnswers.sealed,
                    ':at': onboarding.submittedAt ?? this.clock.now(),
                    ...(submittedAnswers.by !== null && { ':by': submittedAnswers.by }),
                  },
                },
              },
            },
            // The sending browser's draft is done with; other browsers keep theirs.
            ...(submittedAnswers.by === null
              ? []
              : [
                  {
                    write: {
                      Delete: {
                        TableName: this.tableName,
                        Key: keys.onboardingDraft(onboarding.id, submittedAnswers.by),
                      },
                    },
                  },
                ]),
          ];
    await transactWrite(this.doc, [
      {
        write: {
          Put: {
            TableName: this.tableName,
            Item: onboardingItem(onboarding),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        onConditionFailed: () => notFound('onboarding'),
      },
      ...clients.map((client) => ({
        write: { Put: { TableName: this.tableName, Item: clientItem(client) } },
      })),
      ...eventWrites(this.tableName, events),
      ...answers,
      ...runWrites(this.tableName, runs, this.clock.now()),
    ]);
  }

  async saveDraft(onboardingId: string, browserKey: string, sealed: string, now: Micros): Promise<void> {
    await this.doc.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...keys.onboardingDraft(onboardingId, browserKey),
          type: 'onboarding_draft',
          onboarding_id: onboardingId,
          draft: sealed,
          draft_saved_at: now,
        },
      }),
    );
  }

  async getAnswers(onboardingId: string, browserKey: string): Promise<SealedAnswers> {
    const [submission, draft] = await Promise.all([
      getItem(this.doc, this.tableName, keys.onboardingAnswers(onboardingId)),
      getItem(this.doc, this.tableName, keys.onboardingDraft(onboardingId, browserKey)),
    ]);
    const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
    return {
      draft: text(draft?.draft),
      submitted: text(submission?.submitted),
      submittedBy: text(submission?.submitted_by),
    };
  }

  async submittedAnswers(onboardingId: string): Promise<string | null> {
    const submission = await getItem(this.doc, this.tableName, keys.onboardingAnswers(onboardingId));
    return typeof submission?.submitted === 'string' ? submission.submitted : null;
  }

  /** Sets only the acceptance, so a submission written meanwhile keeps its clients. */
  async submitted(options: { limit: number; after?: Onboarding }): Promise<Page<Onboarding>> {
    const items = await queryOldestFirst(this.doc, this.tableName, {
      index: LIST_INDEX,
      partition: keys.submittedOnboardings,
      limit: options.limit + 1,
      after: options.after && indexPosition(onboardingItem(options.after), LIST_INDEX),
    });
    return { items: items.slice(0, options.limit).map(toOnboarding), hasMore: items.length > options.limit };
  }

  async saveAcceptance(
    onboarding: Onboarding,
    events: ServiceEvent[],
    audit: AuditEntry[] = [],
  ): Promise<void> {
    await transactWrite(this.doc, [
      {
        write: {
          Update: {
            TableName: this.tableName,
            Key: keys.onboarding(onboarding.id),
            // Accepted: out of the sign-ups waiting (the list index holds submitted ones only).
            UpdateExpression: 'SET #state = :state, accepted_at = :acceptedAt REMOVE #listPk, #listSk',
            // What is accepted is the submission that was read, once: one made since is not (yet)
            // accepted, and of two acceptances racing (the operator's and the sandbox's) one is written.
            ConditionExpression:
              'attribute_exists(pk) AND submitted_at = :submittedAt AND #state = :submitted',
            ExpressionAttributeNames: {
              '#state': 'state',
              '#listPk': LIST_INDEX.partitionKey,
              '#listSk': LIST_INDEX.sortKey,
            },
            ExpressionAttributeValues: {
              ':state': onboarding.state,
              ':acceptedAt': onboarding.acceptedAt,
              ':submittedAt': onboarding.submittedAt,
              ':submitted': 'submitted',
            },
          },
        },
        onConditionFailed: async () =>
          (await this.get(onboarding.id)) === null
            ? notFound('onboarding')
            : new ConcurrentChange(onboarding.id),
      },
      ...eventWrites(this.tableName, events),
      ...auditWrites(this.tableName, audit),
    ]);
  }

  private tokenItem(hash: string, onboardingId: string): Item {
    return {
      ...keys.sessionToken(hash),
      type: 'session_token',
      onboarding_id: onboardingId,
      created_at: this.clock.now(),
    };
  }

  /** Reads the onboarding a reference or token item points to. */
  private async follow(pointer: Item | undefined): Promise<Onboarding | null> {
    const id = pointer?.onboarding_id;
    return typeof id === 'string' ? this.get(id) : null;
  }
}
