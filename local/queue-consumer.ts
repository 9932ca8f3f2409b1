// local -> the local stand-in for Lambda's SQS event source mapping: pollers long-poll a queue of the
// local SQS twin and hand each batch to the handler a deployed function runs (the same `SQSEvent`, the
// same partial batch response). What the handler does not report failed is deleted; what it does, or
// a whole batch when it throws, comes back after the visibility timeout, and past the queue's
// maxReceiveCount goes to its dead-letter queue, as SQS itself does.
import {
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { log } from '../lambdas/core/log';

export type QueueHandler = (event: SQSEvent) => Promise<SQSBatchResponse | undefined>;

export interface QueueConsumerOptions {
  queueUrl: string;
  queueArn: string;
  region: string;
  /** Messages handed over at once (the mapping's BatchSize; SQS answers at most 10 a receive). */
  batchSize: number;
  /** Batches handled at once (the mapping's MaximumConcurrency). */
  concurrency: number;
  /** Seconds one long poll waits for a message; short in tests so that a stop is prompt. */
  waitSeconds?: number;
}

export interface QueueConsumer {
  /** Stops polling and waits for the batches under way to be handled. */
  stop(): Promise<void>;
}

const toRecord = (message: Message, queueArn: string, region: string): SQSRecord => ({
  messageId: message.MessageId ?? '',
  receiptHandle: message.ReceiptHandle ?? '',
  body: message.Body ?? '',
  attributes: {
    ApproximateReceiveCount: message.Attributes?.ApproximateReceiveCount ?? '1',
    SentTimestamp: message.Attributes?.SentTimestamp ?? '',
    SenderId: message.Attributes?.SenderId ?? 'local',
    ApproximateFirstReceiveTimestamp: message.Attributes?.ApproximateFirstReceiveTimestamp ?? '',
  },
  messageAttributes: {},
  md5OfBody: message.MD5OfBody ?? '',
  eventSource: 'aws:sqs',
  eventSourceARN: queueArn,
  awsRegion: region,
});

const RETRY_POLL_MS = 1_000;

export const consumeQueue = (
  client: SQSClient,
  handler: QueueHandler,
  { queueUrl, queueArn, region, batchSize, concurrency, waitSeconds = 20 }: QueueConsumerOptions,
): QueueConsumer => {
  const stopping = new AbortController();

  /** The message ids the handler reports failed: all of them when it throws. */
  const failedIn = async (messages: readonly Message[]): Promise<Set<string | undefined>> => {
    try {
      const response = await handler({ Records: messages.map((m) => toRecord(m, queueArn, region)) });
      return new Set((response?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier));
    } catch (error) {
      log.error('queue handler failed: its batch comes back after the visibility timeout', {
        queue: queueArn,
        error,
      });
      return new Set(messages.map((message) => message.MessageId));
    }
  };

  const deleteHandled = async (handled: readonly Message[]): Promise<void> => {
    if (handled.length === 0) return;
    const result = await client.send(
      new DeleteMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: handled.map((message, index) => ({
          Id: String(index),
          ReceiptHandle: message.ReceiptHandle,
        })),
      }),
    );
    // At least once: a message not deleted is handled again, which every consumer allows for.
    if ((result.Failed ?? []).length > 0)
      log.warn('queue messages not deleted: they will be handled again', {
        queue: queueArn,
        count: result.Failed?.length,
      });
  };

  const poll = async (): Promise<void> => {
    while (!stopping.signal.aborted) {
      let messages: Message[];
      try {
        const received = await client.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: Math.min(batchSize, 10),
            WaitTimeSeconds: waitSeconds,
            MessageSystemAttributeNames: ['All'],
          }),
          { abortSignal: stopping.signal },
        );
        messages = received.Messages ?? [];
        if (messages.length === 0) continue;
        const failed = await failedIn(messages);
        await deleteHandled(messages.filter((message) => !failed.has(message.MessageId)));
      } catch (error) {
        if (stopping.signal.aborted) return;
        log.warn('queue poll failed; polling again shortly', {
          queue: queueArn,
          error,
        });
        await new Promise((resolve) => setTimeout(resolve, RETRY_POLL_MS));
      }
    }
  };

  const pollers = Array.from({ length: concurrency }, poll);
  return {
    stop: async () => {
      stopping.abort();
      await Promise.allSettled(pollers);
    },
  };
};
