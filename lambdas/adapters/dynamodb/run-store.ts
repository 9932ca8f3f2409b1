// adapter -> the records of workflow runs. A run's item is written with the change that makes it due
// (contract-review-store.ts) and sits in a sparse index partition until it finishes, so the re-drive
// after a restart reads just the runs still to do, oldest first.
import { type DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock, RunOutcome, RunRequest, RunStore, WorkflowRun } from '../../core/ports';
import { finishRunUpdate, toRunRequest } from './items';
import { keys } from './keys';
import { queryOldestFirst } from './table';
import { LIST_INDEX } from './table-schema';
import { isConditionFailed } from './transactions';

/**
 * Only workflow runs are recorded as runs now (a webhook message is its own delivery's record); a
 * delivery run recorded before that (older data) is left out: no workflow runs it.
 */
const workflowRuns = (items: Record<string, unknown>[]): WorkflowRun[] =>
  items.map(toRunRequest).filter((run): run is WorkflowRun => run.kind !== 'delivery');

export class DynamoDbRunStore implements RunStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async unfinished(limit: number): Promise<WorkflowRun[]> {
    const items = await queryOldestFirst(this.doc, this.tableName, {
      index: LIST_INDEX,
      partition: keys.unfinishedRuns,
      limit,
    });
    return workflowRuns(items);
  }

  async *eachUnfinished(pageSize: number): AsyncIterable<WorkflowRun[]> {
    let after: Record<string, unknown> | undefined;
    do {
      const page = await this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: LIST_INDEX.name,
          KeyConditionExpression: '#pk = :partition',
          ExpressionAttributeNames: { '#pk': LIST_INDEX.partitionKey },
          ExpressionAttributeValues: { ':partition': keys.unfinishedRuns },
          ScanIndexForward: true,
          Limit: pageSize,
          ExclusiveStartKey: after,
        }),
      );
      const runs = workflowRuns(page.Items ?? []);
      if (runs.length > 0) yield runs;
      after = page.LastEvaluatedKey;
    } while (after);
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
