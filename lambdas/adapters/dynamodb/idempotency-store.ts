// adapter -> Idempotency-Key records: one item per (integration, key), claimed with a lease, completed
// with the answer to replay, kept 24 hours (decisions.md §2).
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ServiceError } from '../../core/errors';
import type { Scope } from '../../core/model';
import type { Clock, IdempotencyClaim, IdempotencyCompletion, IdempotencyStore } from '../../core/ports';
import { keys } from './keys';
import { getItem } from './table';
import { backoff, isConditionFailed, isTransactionConflict, type TransactWrite } from './transactions';

/** How long a claim holds before a retry of the same request may take it over. */
const LEASE_MICROS = 60_000_000;
const KEEP_SECONDS = 24 * 60 * 60;
const MAX_ATTEMPTS = 8;

interface IdempotencyItem {
  state: 'in_progress' | 'done';
  fingerprint: string;
  lease_until?: number;
  expires_at: number;
  status?: number;
  body?: string;
}

export class DynamoDbIdempotencyStore implements IdempotencyStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async claim(scope: Scope, key: string, fingerprint: string): Promise<IdempotencyClaim> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const now = this.clock.now();
      const nowSeconds = Math.floor(now / 1e6);
      try {
        await this.doc.send(
          new PutCommand({
            TableName: this.tableName,
            Item: {
              ...keys.idempotency(scope.integrationId, key),
              type: 'idempotency',
              state: 'in_progress',
              fingerprint,
              lease_until: now + LEASE_MICROS,
              expires_at: nowSeconds + KEEP_SECONDS,
              created_at: now,
            },
            // Free, expired (TTL deletes lazily), or the same request whose holder died mid-way.
            ConditionExpression:
              'attribute_not_exists(pk) OR expires_at <= :nowSeconds OR (#state = :inProgress AND fingerprint = :fp AND lease_until <= :now)',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: {
              ':nowSeconds': nowSeconds,
              ':inProgress': 'in_progress',
              ':fp': fingerprint,
              ':now': now,
            },
          }),
        );
        return { kind: 'claimed' };
      } catch (error) {
        if (isTransactionConflict(error)) {
          await backoff(attempt);
          continue;
        }
        if (!isConditionFailed(error)) throw error;
      }
      const item = (await getItem(this.doc, this.tableName, keys.idempotency(scope.integrationId, key))) as
        | IdempotencyItem
        | undefined;
      // Released or expired since the write: claim again.
      if (!item || item.expires_at <= nowSeconds) continue;
      if (item.fingerprint !== fingerprint) return { kind: 'reused' };
      if (item.state === 'done')
        return { kind: 'replay', answer: { status: item.status ?? 500, body: item.body ?? '' } };
      if ((item.lease_until ?? 0) > now) return { kind: 'in_use' };
      // The lease lapsed between the write and the read: claim again.
    }
    return { kind: 'in_use' };
  }

  async complete(completion: IdempotencyCompletion): Promise<void> {
    try {
      await this.doc.send(
        new UpdateCommand({ TableName: this.tableName, ...completionUpdate(completion, false) }),
      );
    } catch (error) {
      if (isConditionFailed(error)) throw claimLost(completion.key);
      throw error;
    }
  }

  async release(scope: Scope, key: string, fingerprint: string): Promise<void> {
    try {
      await this.doc.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: keys.idempotency(scope.integrationId, key),
          ConditionExpression: '#state = :inProgress AND fingerprint = :fp',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':inProgress': 'in_progress', ':fp': fingerprint },
        }),
      );
    } catch (error) {
      // Nothing of ours to give up: already completed, taken over or expired.
      if (!isConditionFailed(error)) throw error;
    }
  }
}

/**
 * Writes the record `done` with its answer, keeping its expiry. Inside a transaction (`claimed` true)
 * the claim must still be in progress, so an effect is written at most once per key.
 */
const completionUpdate = (completion: IdempotencyCompletion, claimed: boolean) => ({
  Key: keys.idempotency(completion.scope.integrationId, completion.key),
  UpdateExpression: 'SET #state = :done, #status = :status, #body = :body REMOVE lease_until',
  ConditionExpression: claimed ? 'fingerprint = :fp AND #state = :inProgress' : 'fingerprint = :fp',
  ExpressionAttributeNames: { '#state': 'state', '#status': 'status', '#body': 'body' },
  ExpressionAttributeValues: {
    ':done': 'done',
    ':status': completion.answer.status,
    ':body': completion.answer.body,
    ':fp': completion.fingerprint,
    ...(claimed ? { ':inProgress': 'in_progress' } : {}),
  },
});

/** The completion as one write of a transaction that also writes the request's effect. */
export const idempotencyCompletionWrite = (
  tableName: string,
  completion: IdempotencyCompletion,
): TransactWrite => ({
  Update: { TableName: tableName, ...completionUpdate(completion, true) },
});

/** The claim is no longer this request's: another request with the key holds or finished it. */
export const claimLost = (key: string): ServiceError =>
  new ServiceError(
    'idempotency_key_in_use',
    `The Idempotency-Key ${JSON.stringify(key)} is being processed by another request; retry later.`,
  );
