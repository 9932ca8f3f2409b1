// adapter -> the records of workflow runs. A run's item is written with the change that makes it due
// (contract-review-store.ts) and sits in a sparse index partition until it finishes, so the re-drive
// after a restart reads just the runs still to do, oldest first.
import { type DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Micros } from '../../core/model';
import type {
  Clock,
  DeliveryRun,
  RunKind,
  RunOutcome,
  RunRequest,
  RunStore,
  WorkflowRun,
} from '../../core/ports';
import { finishRunUpdate, toRunRequest, unfinishedRunSortKey } from './items';
import { keys } from './keys';
import { getItem } from './table';
import { LIST_INDEX } from './table-schema';
import { isConditionFailed } from './transactions';

export class DynamoDbRunStore implements RunStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async unfinished(limit: number): Promise<WorkflowRun[]> {
    // The partition holds the workflows' runs only (keys.unfinishedRuns).
    return (await this.unfinishedOf('contract', limit)) as WorkflowRun[];
  }

  async unfinishedDeliveries(limit: number, after?: DeliveryRun): Promise<DeliveryRun[]> {
    let start: Record<string, unknown> | undefined;
    if (after) {
      // Where `after` stands (or stood, if it has finished since): its item keeps when it was recorded.
      const item = await getItem(this.doc, this.tableName, keys.run(after));
      if (item)
        start = {
          ...keys.run(after),
          [LIST_INDEX.partitionKey]: keys.unfinishedRuns('delivery'),
          [LIST_INDEX.sortKey]: unfinishedRunSortKey(after, item.created_at as Micros),
        };
    }
    return (await this.unfinishedOf('delivery', limit, start)) as DeliveryRun[];
  }

  private async unfinishedOf(
    kind: RunKind,
    limit: number,
    start?: Record<string, unknown>,
  ): Promise<RunRequest[]> {
    const { Items } = await this.doc.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: LIST_INDEX.name,
        KeyConditionExpression: '#pk = :unfinished',
        ExpressionAttributeNames: { '#pk': LIST_INDEX.partitionKey },
        ExpressionAttributeValues: { ':unfinished': keys.unfinishedRuns(kind) },
        ScanIndexForward: true,
        Limit: limit,
        ExclusiveStartKey: start,
      }),
    );
    return (Items ?? []).map(toRunRequest);
  }

  async finish(run: RunRequest, outcome: RunOutcome): Promise<void> {
    try {
      await this.doc.send(
        new UpdateCommand({
          ...finishRunUpdate(this.tableName, run, outcome, this.clock.now()),
          ConditionExpression: 'attribute_exists(pk) AND #state <> :finished',
        }),
      );
    } catch (error) {
      // Finished already (a repeated last step), or never recorded: nothing to change either way.
      if (!isConditionFailed(error)) throw error;
    }
  }
}
