// bench -> what recording the request history costs GET /v1/contract-reviews/{id}: the same build with
// REQUEST_HISTORY=off, a second stack beside the first, loaded in turn (on, off, off, on, so that a drift
// of the machine's other load weighs on both alike). After each load of the stack that records, the
// bench waits until its recorder has written what it held (its records stop growing), so that the writes
// of one run never fall in the next; and it counts what was written against what was answered.

import { setTimeout as sleep } from 'node:timers/promises';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../lambdas/adapters/dynamodb';
import { LIST_INDEX, localTableName } from '../lambdas/adapters/dynamodb/table-schema';
import { DEV_INTEGRATION_ID } from '../lambdas/core/dev-bootstrap';
import { mean } from './report';
import type { BenchStack } from './stack';
import { LOAD, type LoadFigures, load } from './throughput';

export interface HistoryRun {
  figures: LoadFigures;
  /** History records written for the run's requests, and the requests answered (warm-up included). */
  recorded?: number;
  answered?: number;
  /** Its records were still being written when the wait gave up: the next run shared the machine with them. */
  drainGaveUp?: boolean;
}

export interface HistoryCost {
  on: HistoryRun[];
  off: HistoryRun[];
}

const POLL_MS = 1_000;
const DRAIN_TIMEOUT_MS = 180_000;

/** Records of the dev integration written since `since` (epoch µs), counted by the list index. */
const recordsSince = async (stack: BenchStack, since: number): Promise<number> => {
  const dynamo = createDocumentClient(`http://127.0.0.1:${stack.portBase + 10}`);
  try {
    let count = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const page = await dynamo.send(
        new QueryCommand({
          TableName: localTableName('production'),
          IndexName: LIST_INDEX.name,
          KeyConditionExpression: '#pk = :partition AND #sk >= :since',
          ExpressionAttributeNames: { '#pk': LIST_INDEX.partitionKey, '#sk': LIST_INDEX.sortKey },
          ExpressionAttributeValues: {
            ':partition': `REQS#${DEV_INTEGRATION_ID}`,
            ':since': String(since).padStart(16, '0'),
          },
          Select: 'COUNT',
          ExclusiveStartKey: start,
        }),
      );
      count += page.Count ?? 0;
      start = page.LastEvaluatedKey;
    } while (start);
    return count;
  } finally {
    dynamo.destroy();
  }
};

/**
 * Polls held still at the end of a drain: longer than the recorder's flush timer and a write's retry
 * pauses, so a count that rests between two writes is not taken for the end of them.
 */
const STEADY_POLLS = 5;

/**
 * Waits until the recorder has written all it held: every answered request is counted, or the count has
 * held still for STEADY_POLLS polls after it began to grow (a recorder that dropped records under the flood
 * writes fewer than were answered). A count still at 0 is never the end: the first write may not have
 * landed yet. Bounded by DRAIN_TIMEOUT_MS, which it reports.
 */
const drained = async (
  stack: BenchStack,
  since: number,
  answered: number,
  progress: (message: string) => void,
) => {
  const until = Date.now() + DRAIN_TIMEOUT_MS;
  let last = -1;
  let still = 0;
  for (;;) {
    const count = await recordsSince(stack, since);
    if (count >= answered) return { count, gaveUp: false };
    still = count === last && count > 0 ? still + 1 : 0;
    if (still >= STEADY_POLLS) return { count, gaveUp: false };
    if (Date.now() > until) {
      progress(`history still being written after ${DRAIN_TIMEOUT_MS / 1000} s (${count} records)`);
      return { count, gaveUp: true };
    }
    last = count;
    await sleep(POLL_MS);
  }
};

/** One load of the stack that records, then the wait for its writes; the count of what it recorded. */
const loadRecording = async (
  stack: BenchStack,
  url: string,
  headers: Record<string, string>,
  progress: (message: string) => void,
): Promise<HistoryRun> => {
  const since = Date.now() * 1000;
  progress(`loading GET with request history on (${LOAD.connections} connections, ${LOAD.durationS} s)…`);
  const figures = await load(url, headers, stack.pid);
  progress('waiting until the history held is written…');
  const answered = figures.total + figures.warmUpTotal;
  const { count: recorded, gaveUp } = await drained(stack, since, answered, progress);
  return { figures, recorded, answered, drainGaveUp: gaveUp };
};

/**
 * The two stacks' GET loads in turn, on-off-off-on. `on` and `off` are the same request to each stack
 * (its own contract review and token).
 */
export const historyCost = async (
  on: { stack: BenchStack; url: string; headers: Record<string, string> },
  off: { stack: BenchStack; url: string; headers: Record<string, string> },
  progress: (message: string) => void,
): Promise<HistoryCost> => {
  const loadOff = async (): Promise<HistoryRun> => {
    progress(`loading GET with request history off (${LOAD.connections} connections, ${LOAD.durationS} s)…`);
    return { figures: await load(off.url, off.headers, off.stack.pid) };
  };
  const first = await loadRecording(on.stack, on.url, on.headers, progress);
  const second = await loadOff();
  const third = await loadOff();
  const fourth = await loadRecording(on.stack, on.url, on.headers, progress);
  return { on: [first, fourth], off: [second, third] };
};

export const meanRps = (runs: HistoryRun[]) => mean(runs.map((run) => run.figures.requestsPerSecond));
export const meanServerMicros = (runs: HistoryRun[]) =>
  mean(runs.map((run) => (run.figures.cpu.server * 1e6) / Math.max(1, run.figures.total)));
export const meanChildMicros = (runs: HistoryRun[]) =>
  mean(runs.map((run) => (run.figures.cpu.serverChildren * 1e6) / Math.max(1, run.figures.total)));
