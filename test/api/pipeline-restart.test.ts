// A restart of the local stack in the middle of processing: the stop interrupts the render, the run stays
// recorded, the next start re-drives it, and it finishes once (one publication, one event).
import { randomUUID } from 'node:crypto';
import { contractParts, exchange, upload } from '../support/api-client';
import { eventually } from '../support/eventually';
import {
  devBootstrap,
  makeDataDir,
  type RunningStack,
  removeDataDir,
  startStack,
} from '../support/local-stack';
import { contractPdf } from '../support/pdfs';
import {
  eventsAbout,
  isPublished,
  publication,
  storedRun,
  unfinishedRunsOf,
  untilFinished,
  waitForReview,
} from '../support/pipeline';
import { portsOf } from '../support/tenants';

const PAGES = 120;

let dataDir: string;
let stack: RunningStack | undefined;

beforeAll(async () => {
  dataDir = await makeDataDir();
});

afterAll(async () => {
  await stack?.stop();
  await removeDataDir(dataDir);
});

/** Whether the blob exists (a range read of a missing key throws). */
const stored = async (key: string): Promise<boolean> => {
  const ports = (await portsOf(stack as RunningStack)).production;
  return ports.blobs.readRange(key, 0, 1).then(
    () => true,
    () => false,
  );
};

test('a stop while pages render, then a start: the run resumes and publishes once', async () => {
  stack = await startStack({ dataDir, env: { RATE_LIMITS: 'off' } });
  const { portBase } = stack;
  const boot = await devBootstrap(stack);
  let token = await exchange(stack.production, boot.keys.production);
  const sent = await upload(
    `${stack.production}/v1/contract-reviews`,
    token,
    contractParts(await contractPdf(PAGES), {
      external_reference: `restart-${randomUUID()}`,
      product: 'contract_viewer',
    }),
  );
  expect(sent.status).toBe(202);
  const id = sent.body.id as string;

  // In the middle: some pages are stored, and processing is still running.
  const midway = `renders/${id}/v1/page-0005.jpg`;
  await eventually(() => stored(midway), Boolean, { what: `${midway} stored`, timeoutMs: 120_000 });
  const during = await waitForReview(stack.production, token, id, () => true);
  expect(during.processing.state).toBe('running');
  expect(await stored(`renders/${id}/v1/contract.json`)).toBe(false);

  expect(await stack.stop()).toBe(0);
  // The stop recorded nothing: no failure, no event; the run is still due.
  const restartedAt = Date.now() * 1000;
  stack = await startStack({ dataDir, portBase, env: { RATE_LIMITS: 'off' } });
  token = await exchange(stack.production, boot.keys.production);

  const done = await waitForReview(stack.production, token, id, isPublished('contract_viewer'), 120_000);
  // It was this start that finished the run: the stop had left it unfinished.
  const run = { kind: 'contract', environment: 'production', contractReviewId: id, version: 1 } as const;
  const finished = await untilFinished(stack, run);
  expect(finished.outcome).toBe('completed');
  expect(finished.finished_at).toBeGreaterThan(restartedAt);
  expect(done.processing).toMatchObject({ state: 'completed', failure_reason: null, failed_at: null });
  const url = publication(done, 'contract_viewer')?.url as string;
  const page = await (await fetch(url)).text();
  expect(page.match(/<section class="page"/g)).toHaveLength(PAGES);

  const events = await eventsAbout(stack, 'production', id);
  expect(events.map((e) => e.type)).toEqual(['contract-reviews.publication.published']);
  expect(stack.output()).not.toContain('processing attempt failed');
  expect(await unfinishedRunsOf((await portsOf(stack)).production, id)).toEqual([]);

  // Another restart finds nothing left to do: the run is recorded finished, and the re-drive (at the
  // start, before the stack is ready, and every second after) starts only runs recorded unfinished.
  expect(await stack.stop()).toBe(0);
  stack = await startStack({ dataDir, portBase, env: { RATE_LIMITS: 'off' } });
  expect(await storedRun(stack, run)).toEqual(finished);
  expect(await unfinishedRunsOf((await portsOf(stack)).production, id)).toEqual([]);
  expect((await eventsAbout(stack, 'production', id)).map((e) => e.type)).toEqual([
    'contract-reviews.publication.published',
  ]);
}, 300_000);
