// test -> watching a contract review go through the pipeline on a running local stack: polling it as an
// integrator does, and reading the events the stack recorded for it (the outbox webhooks will deliver).

import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb';
import { toEvent } from '../../lambdas/adapters/dynamodb/items';
import { keys } from '../../lambdas/adapters/dynamodb/keys';
import { getItem } from '../../lambdas/adapters/dynamodb/table';
import { localTableName } from '../../lambdas/adapters/dynamodb/table-schema';
import type { ServiceEvent } from '../../lambdas/core/events';
import type { Environment } from '../../lambdas/core/model';
import type { ContractRun, Ports, RunOutcome, WorkflowRun } from '../../lambdas/core/ports';
import { PORT_OFFSETS } from '../../local/config';
import { type Answer, bearer, call } from './api-client';
import { eventually } from './eventually';
import type { RunningStack } from './local-stack';

/** Polls `GET /v1/contract-reviews/{id}` until `done` holds of it; fails with the last answer after `timeoutMs`. */
export const waitForReview = async (
  base: string,
  token: string,
  id: string,
  done: (review: Answer['body']) => boolean,
  timeoutMs = 60_000,
): Promise<Answer['body']> =>
  (
    await eventually(
      () => call(`${base}/v1/contract-reviews/${id}`, { headers: bearer(token) }),
      (answer) => answer.status === 200 && done(answer.body),
      { what: `contract review ${id} reaching its state`, timeoutMs },
    )
  ).body;

export const publication = (review: Answer['body'], channel: string) =>
  (review.publications as Array<{ channel: string; state: string; url: string | null }>).find(
    (p) => p.channel === channel,
  );

export const isPublished = (channel: string) => (review: Answer['body']) =>
  publication(review, channel)?.state === 'published';

export interface RecordedEvent {
  type: string;
  occurredAt: number;
  data: { channel?: string; url?: string; contract_review: Answer['body'] };
}

/**
 * Every event the stack recorded in an environment, fanned out or not (the outbox's pending list
 * empties within moments once the stack fans events out), in the order they happened.
 */
export const storedEvents = async (
  stack: Pick<RunningStack, 'portBase'>,
  environment: Environment,
): Promise<ServiceEvent[]> => {
  const doc = createDocumentClient(`http://127.0.0.1:${stack.portBase + PORT_OFFSETS.dynamoDb}`);
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new ScanCommand({
        TableName: localTableName(environment),
        FilterExpression: '#type = :event',
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: { ':event': 'event' },
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items.map(toEvent).sort((a, b) => a.occurredAt - b.occurredAt || a.id.localeCompare(b.id));
};

/** The events recorded about one contract review, in the order they happened. */
export const eventsAbout = async (
  stack: Pick<RunningStack, 'portBase'>,
  environment: Environment,
  id: string,
): Promise<RecordedEvent[]> =>
  (await storedEvents(stack, environment))
    .map((event) => ({ type: event.type, occurredAt: event.occurredAt, data: JSON.parse(event.data) }))
    .filter((event) => event.data.contract_review?.id === id);

/** The runs of contract review `id` recorded and not finished: every page of the stack's unfinished runs. */
export const unfinishedRunsOf = async (ports: Pick<Ports, 'runs'>, id: string) => {
  const found: WorkflowRun[] = [];
  for await (const page of ports.runs.eachUnfinished(100))
    found.push(...page.filter((run) => 'contractReviewId' in run && run.contractReviewId === id));
  return found;
};

/** A run's record as stored: finished or not, how, and when (microseconds). */
export interface StoredRun {
  state: string;
  outcome?: RunOutcome;
  finished_at?: number;
}

/** The stored record of a contract version's run, or undefined when none was recorded. */
export const storedRun = async (
  stack: Pick<RunningStack, 'portBase'>,
  run: ContractRun,
): Promise<StoredRun | undefined> => {
  const doc = createDocumentClient(`http://127.0.0.1:${stack.portBase + PORT_OFFSETS.dynamoDb}`);
  return (await getItem(doc, localTableName(run.environment), keys.run(run))) as StoredRun | undefined;
};

/**
 * Waits until a run is recorded finished; its record. Once it is, no re-drive starts it again, so what it
 * did (its attempts, its events) is final.
 */
export const untilFinished = (stack: Pick<RunningStack, 'portBase'>, run: ContractRun): Promise<StoredRun> =>
  eventually(
    () => storedRun(stack, run),
    (record): record is StoredRun => record?.state === 'finished',
    { what: `the ${run.kind} run of ${run.contractReviewId} v${run.version} recorded finished` },
  ) as Promise<StoredRun>;

/**
 * Waits until the stack has nothing under way in either environment: no run unfinished, no webhook
 * message pending delivery (one waiting for its next attempt is), and no event waiting to be fanned out. A webhook that was going
 * to arrive has arrived by then, so a check that nothing more arrives needs no fixed wait. Not for a
 * stack with a run that waits on purpose (an acceptance due days later).
 */
export const untilIdle = async (
  ports: Readonly<Record<Environment, Pick<Ports, 'runs' | 'outbox' | 'webhookMessages'>>>,
  timeoutMs = 90_000,
): Promise<void> => {
  const busy = async () => {
    for (const environment of Object.keys(ports) as Environment[]) {
      const { runs, outbox, webhookMessages } = ports[environment];
      const pending = await Promise.all([
        runs.unfinished(1),
        webhookMessages.pendingDeliveries(1),
        outbox.pending(1),
      ]);
      if (pending.some((records) => records.length > 0)) return true;
    }
    return false;
  };
  await eventually(busy, (isBusy) => !isBusy, { what: 'the stack idle', timeoutMs });
};
