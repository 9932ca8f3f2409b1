// adapter -> TransactWriteItems with domain answers: a failed condition becomes the ServiceError its
// item names, transaction conflicts are retried with jittered backoff, anything else is rethrown.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  type DynamoDBDocumentClient,
  TransactWriteCommand,
  type TransactWriteCommandInput,
} from '@aws-sdk/lib-dynamodb';
import { ServiceError } from '../../core/errors';

export type TransactWrite = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export interface GuardedWrite {
  write: TransactWrite;
  /** The error to throw when this item's condition fails; may read the table to word it. */
  onConditionFailed?: () => Promise<Error> | Error;
}

const MAX_ATTEMPTS = 12;

/**
 * Writes `writes` in one transaction. When conditions fail, the first failing write in array order
 * decides the error, so list writes in the order their errors take precedence.
 */
export const transactWrite = async (doc: DynamoDBDocumentClient, writes: GuardedWrite[]): Promise<void> => {
  for (let attempt = 1; ; attempt++) {
    try {
      await doc.send(new TransactWriteCommand({ TransactItems: writes.map((w) => w.write) }));
      return;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const codes = (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
      const failed = codes.indexOf('ConditionalCheckFailed');
      if (failed >= 0) throw await conditionError(writes[failed], error);
      if (!codes.includes('TransactionConflict')) throw error;
      if (attempt >= MAX_ATTEMPTS) throw busy(error);
      await backoff(attempt);
    }
  }
};

const conditionError = async (write: GuardedWrite | undefined, cause: Error): Promise<Error> => {
  if (write?.onConditionFailed) return write.onConditionFailed();
  return new Error('a transaction condition failed unexpectedly', { cause });
};

/** Contention that outlasted every retry: the caller may try again shortly. */
export const busy = (cause: unknown): ServiceError =>
  new ServiceError('service_unavailable', 'The service is busy with concurrent changes; retry shortly.', {
    headers: { 'Retry-After': '1' },
    cause,
  });

/** Full jitter on an exponential base: 10 ms, 20 ms, … capped at 500 ms. */
export const backoff = (attempt: number): Promise<void> => {
  const cap = Math.min(500, 10 * 2 ** (attempt - 1));
  return new Promise((resolve) => setTimeout(resolve, Math.random() * cap));
};

/** Whether `error` is a failed condition of a single-item write. */
export const isConditionFailed = (error: unknown): boolean =>
  error instanceof Error && error.name === 'ConditionalCheckFailedException';

/** Whether a single-item write collided with a transaction on the same item and may be retried. */
export const isTransactionConflict = (error: unknown): boolean =>
  error instanceof Error && error.name === 'TransactionConflictException';
