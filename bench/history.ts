// bench -> what recording the request history costs GET /v1/contract-reviews/{id}: the same build with
// REQUEST_HISTORY=off, a second stack beside the first, loaded in turn (on, off, off, on, so that a drift
// of the machine's other load weighs on both alike). After each load of the stack that records, the
// bench waits until its recorder has written what it held (its records stop growing), so that the writes
// of one run never fall in the next; and it counts what was written against what was answered.

import { setTimeout as sleep } from 'node:timers/promises';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
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

/**
 * How the drain is watched without slowing it. DynamoDB Local answers every request on one SQLite thread,
 * the one writing the history, and counting a run's records by the list index read them all, page after
 * page, each page more slowly than the last (10,000 records 0.34 s, 30,000 2.3 s, 60,000 7.4 s): polled
 * each second, the counting took that thread from the writes it waited for. So the drain polls the newest
 * record of the run (one item, read backwards), and what was recorded is the table's item count after the
 * drain less before the run (DescribeTable, 0.5 s at 30,000 items), read twice a run.
 */
/** The stack's production table, through one client for a run's polls and counts. */
interface Table {
  client: ReturnType<typeof createDocumentClient>;
  name: string;
}

const tableOf = (stack: BenchStack): Table => ({
  client: createDocumentClient(`http://127.0.0.1:${stack.portBase + 10}`),
  name: localTableName('production'),
});

/** Items in the table. */
const itemCount = async (table: Table): Promise<number> => {
  const { Table } = await table.client.send(new DescribeTableCommand({ TableName: table.name }));
  return Table?.ItemCount ?? 0;
};

/** The list position of the dev integration's newest record since `since` (epoch µs), or null for none. */
const newestRecordSince = async (table: Table, since: number): Promise<string | null> => {
  const page = await table.client.send(
    new QueryCommand({
      TableName: table.name,
      IndexName: LIST_INDEX.name,
      KeyConditionExpression: '#pk = :partition AND #sk >= :since',
      ExpressionAttributeNames: { '#pk': LIST_INDEX.partitionKey, '#sk': LIST_INDEX.sortKey },
      ExpressionAttributeValues: {
        ':partition': `REQS#${DEV_INTEGRATION_ID}`,
        ':since': String(since).padStart(16, '0'),
      },
      ProjectionExpression: '#sk',
      ScanIndexForward: false,
      Limit: 1,
    }),
  );
  const newest = page.Items?.[0]?.[LIST_INDEX.sortKey];
  return typeof newest === 'string' ? newest : null;
};

/**
 * Polls held still at the end of a drain: longer than the recorder's flush timer, its hold while the stack
 * is saturated and a write's retry pauses, so a pause between two writes is not taken for the end of them.
 */
const STEADY_POLLS = 5;

/**
 * Waits until the recorder has written all it held: the run's newest record has stayed the same for
 * STEADY_POLLS polls (the recorder writes its backlog oldest first, so each write moves it). None yet is
 * never the end: the first write may not have landed. Bounded by DRAIN_TIMEOUT_MS, which it reports.
 */
const drained = async (table: Table, since: number, progress: (message: string) => void) => {
  const until = Date.now() + DRAIN_TIMEOUT_MS;
  let last: string | null = null;
  let still = 0;
  for (;;) {
    const newest = await newestRecordSince(table, since);
    still = newest !== null && newest === last ? still + 1 : 0;
    if (still >= STEADY_POLLS) return { gaveUp: false };
    if (Date.now() > until) {
      progress(`history still being written after ${DRAIN_TIMEOUT_MS / 1000} s`);
      return { gaveUp: true };
    }
    last = newest;
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
  const table = tableOf(stack);
  try {
    const before = await itemCount(table);
    const since = Date.now() * 1000;
    progress(`loading GET with request history on (${LOAD.connections} connections, ${LOAD.durationS} s)…`);
    const figures = await load(url, headers, stack.pid);
    progress('waiting until the history held is written…');
    const answered = figures.total + figures.warmUpTotal;
    const { gaveUp } = await drained(table, since, progress);
    const recorded = (await itemCount(table)) - before;
    return { figures, recorded, answered, drainGaveUp: gaveUp };
  } finally {
    table.client.destroy();
  }
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
