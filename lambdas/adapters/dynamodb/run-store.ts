// adapter -> the records of workflow runs. A run's item is written with the change that makes it due
// (contract-review-store.ts) and sits in a sparse index partition until it finishes, so the re-drive
// after a restart reads just the runs still to do, oldest first.
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock, RunOutcome, RunRequest, RunStore, WorkflowRun } from '../../core/ports';
import { finishRunUpdate, toRunRequest } from './items';
import { keys } from './keys';
import { queryOldestFirst } from './table';
import { LIST_INDEX } from './table-schema';
import { isConditionFailed } from './transactions';

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
    // Only workflow runs are recorded as runs now (a webhook message is its own delivery's record); a
    // delivery run recorded before that (older data) is left out: no workflow runs it.
    return items.map(toRunRequest).filter((run): run is WorkflowRun => run.kind !== 'delivery');
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
