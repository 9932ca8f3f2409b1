// adapter -> the task tokens of the local stack's workflow runner: how a wait ended, kept in the
// environment's table until the runner's waiting state takes it. Deployed, Step Functions keeps that
// itself (SendTaskSuccess, SendTaskFailure); locally a wait is ended by another process (the operator
// tool) or by a queue's consumer, so the outcome goes through the table they share.
import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Workflows } from '../../core/ports';
import { keys } from '../dynamodb/keys';
import { isConditionFailed } from '../dynamodb/transactions';

/** How a wait ended: its Task's output, or its failure (an error name the definition matches, a cause). */
export type WaitOutcome =
  | { succeeded: true; output: object }
  | { succeeded: false; error: string; cause: string };

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
