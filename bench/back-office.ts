// bench -> the back office's Reviews list with 1,000 reviews due in one environment (production) of the
// local stack. The reviews are written through the contract review store itself (`contractReviews.create`,
// each with its idempotency record, as the API's send writes them), already requested: the real path
// (1,000 PDFs rendered and analysed) would take hours here and measure the pipeline, not the list, which
// reads the same records either way. Figures, each the median of several reads against DynamoDB Local:
// - the backend's time for the list's first page (`listReviewQueue`, the use case the route runs, one
//   index Query and one batch read of the desks), as a ratio to one GetItem of a review in the same run;
// - the backend's time for the queue's summary (`reviewQueueSummary`: a Select COUNT Query up to its bound
//   of 1,000, and the newest request), which the page reads with every poll;
// - the time from `lawyer_review.requested` (written by the pipeline's own step, `lawyerReviewRequested`,
//   with its event) to the review being visible to a lawyer with only the first page open: what the page
//   reads each poll (the first page and the summary), until the summary names it (a new request is the
//   queue's last row, never on the first page of 1,000). The page polls every 3 s, so a person sees it up
//   to 3 s after this.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { listReviewQueue, reviewQueueSummary } from '../lambdas/core/back-office/review-desk';
import type { Staff } from '../lambdas/core/back-office/roles';
import { changeContractReview } from '../lambdas/core/contracts/change';
import { lawyerReviewRequested } from '../lambdas/core/contracts/pipeline';
import type { ContractReview, Micros } from '../lambdas/core/model';
import type { Ports } from '../lambdas/core/ports';
import { readLocalConfig } from '../local/config';
import { localServices } from '../local/wiring';
import { completion, contractReview, contractVersion, scopeIn } from '../test/support/fixtures';
import { median, ms, ratio, round, table } from './report';
import type { BenchStack } from './stack';

const DUE = 1_000;
/** Writes at once while seeding. */
const CONCURRENCY = 10;
/** Reads timed of each kind. */
const READS = 20;
/** Reviews made due one after another, each timed until it is in the list. */
const ARRIVALS = 5;
/** The page's own size and poll interval (frontend/back-office/app/pages/reviews.tsx). */
const PAGE_SIZE = 50;
const PAGE_POLL_MS = 3_000;
const GOALS = { firstPageMs: 100, visibleMs: 5_000 } as const;
/** A row that is not in the list this long after its request is a failure, not a figure. */
const GIVE_UP_MS = 60_000;

const LAWYER: Staff = { kind: 'staff', email: 'bench-lawyer@localhost.test', roles: ['lawyer'] };
const SECOND = 1_000_000;

type BenchPorts = Ports;

/** A review of production written as the API writes a first send; requested at `requestedAt` if given. */
const seed = async (
  ports: BenchPorts,
  createdAt: Micros,
  requestedAt: Micros | null,
): Promise<ContractReview> => {
  const scope = scopeIn('production');
  const review = contractReview(scope, createdAt, {
    processing: { state: 'completed', completedAt: createdAt, failureReason: null, failedAt: null },
    analysis: { state: 'completed', completedAt: createdAt, failureReason: null, failedAt: null },
    lawyerReview:
      requestedAt === null
        ? { state: 'not_requested', requestedAt: null, completedAt: null }
        : { state: 'requested', requestedAt, completedAt: null },
  });
  const key = `bench-${randomUUID()}`;
  await ports.idempotency.claim(scope, key, `fp-${key}`);
  await ports.contractReviews.create({
    review,
    version: contractVersion(review, 1, createdAt),
    idempotency: completion(scope, key, `fp-${key}`),
  });
  return review;
};

const timed = async <T>(task: () => Promise<T>): Promise<number> => {
  const started = performance.now();
  await task();
  return performance.now() - started;
};

/** What the Reviews page reads each poll with its first page open: that page and the summary. */
const firstPageView = (ports: BenchPorts) =>
  Promise.all([listReviewQueue(ports, LAWYER, { limit: PAGE_SIZE }), reviewQueueSummary(ports, LAWYER)]);

/** Every page of the queue, as the Reviews page reads it with all its pages loaded. */
const wholeQueue = async (ports: BenchPorts): Promise<string[]> => {
  const ids: string[] = [];
  for (;;) {
    const page = await listReviewQueue(ports, LAWYER, { limit: PAGE_SIZE, startingAfter: ids.at(-1) });
    ids.push(...page.data.map((row) => row.id));
    if (!page.has_more) return ids;
  }
};

export const backOfficeSection = async (
  stack: BenchStack,
  progress: (message: string) => void,
): Promise<void> => {
  const ports = (
    await localServices(readLocalConfig({ PORT_BASE: String(stack.portBase), DATA_DIR: stack.dataDir }))
  ).production.ports;
  const start = ports.clock.now() - 2 * DUE * SECOND;
  progress(`back office: seeding ${DUE} due reviews through the contract review store…`);
  let next = 0;
  const seeded: ContractReview[] = [];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < DUE) {
        const n = next++;
        seeded.push(await seed(ports, start + n * SECOND, start + n * SECOND + 1));
      }
    }),
  );

  // Warm-up: one of each read, untimed.
  await listReviewQueue(ports, LAWYER, { limit: PAGE_SIZE });
  await ports.contractReviews.get(seeded[0]?.id as string);
  await reviewQueueSummary(ports, LAWYER);
  const firstPage: number[] = [];
  const summary: number[] = [];
  const getItem: number[] = [];
  for (let n = 0; n < READS; n += 1) {
    firstPage.push(await timed(() => listReviewQueue(ports, LAWYER, { limit: PAGE_SIZE })));
    summary.push(await timed(() => reviewQueueSummary(ports, LAWYER)));
    getItem.push(await timed(() => ports.contractReviews.get(seeded[n % seeded.length]?.id as string)));
  }
  const whole: number[] = [];
  for (let n = 0; n < 3; n += 1) whole.push(await timed(() => wholeQueue(ports)));

  progress(`back office: ${ARRIVALS} reviews made due one after another, each awaited in the list…`);
  const visible: number[] = [];
  for (let n = 0; n < ARRIVALS; n += 1) {
    const review = await seed(ports, ports.clock.now(), null);
    const requested = performance.now();
    await changeContractReview(ports, review.id, lawyerReviewRequested(ports.ids, 1));
    for (;;) {
      const [rows, due] = await firstPageView(ports);
      if (due.newest?.id === review.id || rows.data.some((row) => row.id === review.id)) break;
      if (performance.now() - requested > GIVE_UP_MS)
        throw new Error(
          `back office: ${review.id} was not on the first page ${GIVE_UP_MS} ms after its request`,
        );
    }
    visible.push(performance.now() - requested);
  }

  const figures = {
    due: DUE,
    first_page_ms: round(median(firstPage)),
    get_item_ms: round(median(getItem)),
    first_page_over_get_item: round(median(firstPage) / median(getItem)),
    summary_ms: round(median(summary)),
    summary_over_get_item: round(median(summary) / median(getItem)),
    whole_list_ms: round(median(whole)),
    requested_to_first_page_ms: round(median(visible)),
    requested_to_seen_worst_ms: round(median(visible) + PAGE_POLL_MS),
  };
  console.log('\nBack office: the Reviews list with 1,000 due reviews (production, DynamoDB Local)');
  console.log(
    table([
      ['figure', 'median', 'goal'],
      ['first page (50 rows), backend', ms(figures.first_page_ms), `< ${GOALS.firstPageMs} ms`],
      ['one GetItem of a review (baseline)', ms(figures.get_item_ms), ''],
      ['first page ÷ GetItem', ratio(figures.first_page_over_get_item), ''],
      ['summary (count up to 1,000, newest), backend', ms(figures.summary_ms), ''],
      ['summary ÷ GetItem', ratio(figures.summary_over_get_item), ''],
      [`whole list (${DUE / PAGE_SIZE + 1} pages)`, ms(figures.whole_list_ms), ''],
      ['requested → named on the first page (its summary)', ms(figures.requested_to_first_page_ms), ''],
      [
        `… + the page's ${PAGE_POLL_MS / 1000} s poll (worst)`,
        ms(figures.requested_to_seen_worst_ms),
        `< ${GOALS.visibleMs} ms`,
      ],
    ]),
  );
  console.log(`\n${JSON.stringify({ back_office: figures })}`);
};
