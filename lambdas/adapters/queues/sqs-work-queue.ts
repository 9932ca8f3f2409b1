// adapter -> the work-queue port on SQS (deployed, and against the local twin): messages go in
// SendMessageBatch calls of at most 10 entries and 256 KiB, and entries SQS refuses for its own reasons
// (throttling, an internal error) are sent again; an entry refused as malformed fails the send.
import {
  type BatchResultErrorEntry,
  SendMessageBatchCommand,
  type SendMessageBatchRequestEntry,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { MAX_QUEUE_DELAY_SECONDS, type QueuedWork, type WorkQueue } from '../../core/ports';
import { batchesWithin } from '../batches';

/** SQS's limits on one SendMessageBatch call. */
const MAX_ENTRIES = 10;
const MAX_BATCH_BYTES = 256 * 1024;
/** Times an entry SQS failed on its side is sent again before the send fails. */
const RESENDS = 3;

/** Batches of `messages` within SQS's limits, in order. */
export const batchesOf = (messages: readonly QueuedWork[]): QueuedWork[][] =>
  batchesWithin(messages, (message) => Buffer.byteLength(message.body, 'utf8'), {
    maxItems: MAX_ENTRIES,
    maxBytes: MAX_BATCH_BYTES,
    what: 'a queued message',
  });

const delayOf = (message: QueuedWork): number => {
  const delay = message.delaySeconds ?? 0;
  if (!Number.isInteger(delay) || delay < 0 || delay > MAX_QUEUE_DELAY_SECONDS)
    throw new Error(`a queue delay is 0 to ${MAX_QUEUE_DELAY_SECONDS} whole seconds, not ${delay}`);
  return delay;
};

const refusal = (failed: readonly BatchResultErrorEntry[]) =>
  new Error(
    `SQS refused ${failed.length} message(s): ${failed.map((entry) => `${entry.Code} ${entry.Message ?? ''}`.trim()).join('; ')}`,
  );

export const sqsWorkQueue = (client: SQSClient, queueUrl: string): WorkQueue => {
  const sendBatch = async (batch: SendMessageBatchRequestEntry[]): Promise<void> => {
    let entries = batch;
    for (let attempt = 0; ; attempt++) {
      const result = await client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
      const failed = result.Failed ?? [];
      if (failed.length === 0) return;
      if (failed.some((entry) => entry.SenderFault) || attempt === RESENDS) throw refusal(failed);
      const again = new Set(failed.map((entry) => entry.Id));
      entries = entries.filter((entry) => again.has(entry.Id));
    }
  };
  return {
    send: async (messages) => {
      // Every batch checked before the first is sent: a bad delay in the last sends nothing.
      const batches = batchesOf(messages).map((batch) =>
        batch.map((message, index) => ({
          Id: String(index),
          MessageBody: message.body,
          DelaySeconds: delayOf(message),
        })),
      );
      for (const batch of batches) await sendBatch(batch);
    },
  };
};
