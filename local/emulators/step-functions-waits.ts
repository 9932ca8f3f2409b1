// adapter -> the task tokens of the local stack's workflow runner: how a wait ended, kept in the
// environment's table until the runner's waiting state takes it. Deployed, Step Functions keeps that
// itself (SendTaskSuccess, SendTaskFailure); locally a wait is ended by another process (the operator
// tool) or by a queue's consumer, so the outcome goes through the table they share. A settle made in the
// runner's own process (the render queue's consumer) also wakes its waiter at once, so that no pipeline
// step waits for the runner's next look at the table.
import { EventEmitter } from 'node:events';
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../lambdas/adapters/dynamodb/keys';
import { isConditionFailed } from '../../lambdas/adapters/dynamodb/transactions';
import type { Workflows } from '../../lambdas/core/ports';

/** How a wait ended: its Task's output, or its failure (an error name the definition matches, a cause). */
export type WaitOutcome =
  | { succeeded: true; output: object }
  | { succeeded: false; error: string; cause: string };

/** Settles made in this process, by table and token: a waiter here hears of one at once. */
const settledHere = new EventEmitter().setMaxListeners(0);

export class LocalWaits {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Keeps the outcome of `token` until it is taken; while one waits to be taken, a second changes nothing. */
  async settle(token: string, outcome: WaitOutcome): Promise<void> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.localWait(token), type: 'local_wait', outcome: JSON.stringify(outcome) },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
    settledHere.emit(this.eventOf(token));
  }

  /**
   * Resolves when `token` is next settled in this process (through any `LocalWaits` of this table); never
   * once `until` has aborted. Asked before a `take`, so that a settle in between is not missed.
   */
  settledHere(token: string, until: AbortSignal): Promise<void> {
    const { promise, resolve } = Promise.withResolvers<void>();
    const event = this.eventOf(token);
    const forget = () => settledHere.off(event, wake);
    const wake = () => {
      until.removeEventListener('abort', forget);
      forget();
      resolve();
    };
    settledHere.on(event, wake);
    until.addEventListener('abort', forget, { once: true });
    return promise;
  }

  private eventOf(token: string): string {
    return `${this.tableName}\n${token}`;
  }

  /**
   * The outcome of `token`, taken (removed, so that a retried Task waiting on the same token waits for
   * its own), or null while the wait goes on.
   */
  async take(token: string): Promise<WaitOutcome | null> {
    const { Item } = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: keys.localWait(token), ConsistentRead: true }),
    );
    if (Item === undefined) return null;
    await this.doc.send(new DeleteCommand({ TableName: this.tableName, Key: keys.localWait(token) }));
    return JSON.parse(String(Item.outcome)) as WaitOutcome;
  }

  /** The part of the workflows port that ends waits, for the local stack and the operator tool beside it. */
  get ending(): Pick<Workflows, 'completeWait' | 'failWait'> {
    return {
      completeWait: (token, output) => this.settle(token, { succeeded: true, output }),
      failWait: (token, error, cause) => this.settle(token, { succeeded: false, error, cause }),
    };
  }
}
