// adapter -> growing delays between attempts (AttemptDelays), shared by every instance: one item per key
// holds how many attempts were counted and when the next may be made. Each attempt is a read and a
// write conditional on what was read, so two attempts at once are counted one after the other (the
// second against the first's delay) and never both against the same count. A key quiet for a day is
// forgotten (the table's TTL; reads treat an item past it as gone).
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Micros } from '../../core/model';
import type { AttemptDelays, Clock } from '../../core/ports';
import { keys } from './keys';
import { getItem } from './table';
import { TTL_ATTRIBUTE } from './table-schema';
import { backoff, isConditionFailed, isTransactionConflict } from './transactions';

const MAX_ATTEMPTS = 8;
const FORGOTTEN_AFTER_SECONDS = 24 * 60 * 60;

type Attempt = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export class DynamoDbAttemptDelays implements AttemptDelays {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async attempt(key: string, delayAfter: (counted: number) => Micros): Promise<Attempt> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const now = this.clock.now();
      const item = await getItem(this.doc, this.tableName, keys.attemptDelay(key));
      const live = item !== undefined && Number(item[TTL_ATTRIBUTE]) > now / 1e6;
      const counted = live ? Number(item.counted) : 0;
      const notBefore = live ? Number(item.not_before) : 0;
      if (notBefore > now)
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((notBefore - now) / 1e6)) };
      const next = now + delayAfter(counted + 1);
      try {
        await this.doc.send(
          new PutCommand({
            TableName: this.tableName,
            Item: {
              ...keys.attemptDelay(key),
              counted: counted + 1,
              not_before: next,
              [TTL_ATTRIBUTE]: Math.ceil(next / 1e6) + FORGOTTEN_AFTER_SECONDS,
            },
            // Exactly the state read (gone, or expired, included): another attempt in between fails it.
            ...(item === undefined
              ? { ConditionExpression: 'attribute_not_exists(pk)' }
              : {
                  ConditionExpression: 'counted = :counted AND not_before = :notBefore',
                  ExpressionAttributeValues: { ':counted': item.counted, ':notBefore': item.not_before },
                }),
          }),
        );
        return { allowed: true };
      } catch (error) {
        if (isTransactionConflict(error)) await backoff(attempt);
        else if (!isConditionFailed(error)) throw error;
      }
    }
    // Contention outlasted every attempt: refuse rather than let attempts through uncounted.
    return { allowed: false, retryAfterSeconds: 1 };
  }

  async forget(key: string): Promise<void> {
    await this.doc.send(new DeleteCommand({ TableName: this.tableName, Key: keys.attemptDelay(key) }));
  }
}
