// adapter -> the task tokens of the local stack's workflow runner: how a wait ended, kept in the
// environment's table until the runner's waiting task reads it. Deployed, Step Functions keeps that
// itself (SendTaskSuccess, SendTaskFailure); locally the operator tool, another process, ends a wait,
// so the outcome goes through the table both processes share.
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { Workflows } from '../../core/ports';
import { keys } from '../dynamodb/keys';
import { isConditionFailed } from '../dynamodb/transactions';

/** How a wait ended: resumed (the lawyer published), or superseded (a newer version was accepted). */
export type WaitOutcome = 'resumed' | 'superseded';

export class LocalWaits {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /** Keeps the first outcome of `token`: a wait ends once, and a later outcome changes nothing. */
  async settle(token: string, outcome: WaitOutcome): Promise<void> {
    try {
      await this.doc.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.localWait(token), type: 'local_wait', outcome },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
    }
  }

  /** How the wait of `token` ended, or null while it goes on. */
  async outcome(token: string): Promise<WaitOutcome | null> {
    const { Item } = await this.doc.send(
      new GetCommand({ TableName: this.tableName, Key: keys.localWait(token), ConsistentRead: true }),
    );
    return (Item?.outcome as WaitOutcome | undefined) ?? null;
  }

  /** The part of the workflows port that ends waits, for the local stack and the operator tool beside it. */
  get ending(): Pick<Workflows, 'resumeWait' | 'supersedeWait'> {
    return {
      resumeWait: (token) => this.settle(token, 'resumed'),
      supersedeWait: (token) => this.settle(token, 'superseded'),
    };
  }
}
