// adapter -> token buckets shared by every instance, as GCRA: one item per bucket holds its
// theoretical arrival time `tat` (epoch µs); each allowed request moves it on by one emission interval.
// Both writes are single conditional updates, so concurrent takes never over-admit.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock, RateLimiter } from '../../core/ports';
import { keys } from './keys';
import { getItem } from './table';
import { backoff, isConditionFailed, isTransactionConflict } from './transactions';

const MAX_ATTEMPTS = 8;

type Take = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class DynamoDbRateLimiter implements RateLimiter {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async take(bucket: string, ratePerSecond: number, burst: number): Promise<Take> {
    const interval = Math.max(1, Math.round(1e6 / ratePerSecond));
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const now = this.clock.now();
      // Allowed while the bucket, after this take, holds no more than `burst` intervals of debt.
      const limit = now + (burst - 1) * interval;
      // Garbage collection only: once `tat` has passed, the item means the same as no item.
      const expiresAt = Math.ceil((now + burst * interval) / 1e6) + 1;
      try {
        // The usual case under load: the bucket is draining, so move `tat` on atomically.
        await this.update(
          bucket,
          'SET tat = tat + :interval, expires_at = :expiresAt',
          'tat > :now AND tat <= :limit',
          {
            ':interval': interval,
            ':expiresAt': expiresAt,
            ':now': now,
            ':limit': limit,
          },
        );
        return { allowed: true };
      } catch (error) {
        if (isTransactionConflict(error)) {
          await backoff(attempt);
          continue;
        }
        if (!isConditionFailed(error)) throw error;
        const tat = (await this.failedTat(error, bucket)) ?? 0;
        if (tat > limit) {
          return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((tat - limit) / 1e6)) };
        }
        // tat in (now, limit] again means another take moved it meanwhile: try again.
        if (tat > now) continue;
      }
      try {
        // The bucket is full (or new): start its debt at one interval from now.
        await this.update(
          bucket,
          'SET tat = :next, expires_at = :expiresAt',
          'attribute_not_exists(tat) OR tat <= :now',
          {
            ':next': now + interval,
            ':expiresAt': expiresAt,
            ':now': now,
          },
        );
        return { allowed: true };
      } catch (error) {
        if (!isConditionFailed(error) && !isTransactionConflict(error)) throw error;
        await backoff(attempt);
      }
    }
    // Contention outlasted every attempt: refuse rather than over-admit.
    return { allowed: false, retryAfterSeconds: 1 };
  }

  private async update(
    bucket: string,
    updateExpression: string,
    conditionExpression: string,
    values: Record<string, number>,
  ): Promise<void> {
    await this.doc.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: keys.rateBucket(bucket),
        UpdateExpression: updateExpression,
        ConditionExpression: conditionExpression,
        ExpressionAttributeValues: values,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  }

  /** The bucket's `tat` when a condition failed: from the failure itself, else read. */
  private async failedTat(error: unknown, bucket: string): Promise<number | undefined> {
    const raw = error instanceof ConditionalCheckFailedException ? error.Item?.tat?.N : undefined;
    if (raw !== undefined) return Number(raw);
    const item = await getItem(this.doc, this.tableName, keys.rateBucket(bucket));
    return typeof item?.tat === 'number' ? item.tat : undefined;
  }
}
