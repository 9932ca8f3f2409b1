// The contract pipeline over HTTP against the real local stack: each product from upload to every
// publication published (review products through `ops publish-review`), the events in their exact
// order, new versions at the same link, withdrawal, and a PDF that fails processing.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { bearer, call, contractParts, exchange, upload } from '../support/api-client';
import { eventually, isEmpty } from '../support/eventually';
import { devBootstrap, ops, type RunningStack, useLocalStack } from '../support/local-stack';
import { contractPdf, undrawablePdf } from '../support/pdfs';
import {
  eventsAbout,
  isPublished,
  publication,
  unfinishedRunsOf,
  untilFinished,
  waitForReview,
} from '../support/pipeline';
import { portsOf } from '../support/tenants';

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

let stack: RunningStack;
let token: string;
let pdf: Uint8Array;

// DELAY_SCALE shortens the processing retries' backoff (10 s first) to a tenth of a second.
useLocalStack(
  (started) => {
    stack = started;
  },
  { env: { RATE_LIMITS: 'off', DELAY_SCALE: '100' } },
);

beforeAll(async () => {
  const boot = await devBootstrap(stack);
  token = await exchange(stack.production, boot.keys.production);
  pdf = await contractPdf(3);
}, 180_000);

const send = async (request: Record<string, unknown>, file = pdf) => {
  const answer = await upload(`${stack.production}/v1/contract-reviews`, token, contractParts(file, request));
  expect(answer.status).toBe(202);
  return answer.body as { id: string; version: number };
};

const sendVersion = async (id: string, basedOn: number, file: Uint8Array) => {
  const answer = await upload(
    `${stack.production}/v1/contract-reviews/${id}/versions`,
    token,
    contractParts(file, { based_on_version: basedOn }),
  );
  expect(answer.status).toBe(202);
  return answer.body;
};

const waitFor = (id: string, done: Parameters<typeof waitForReview>[3]) =>
  waitForReview(stack.production, token, id, done);

const types = async (id: string) => (await eventsAbout(stack, 'production', id)).map((e) => e.type);

const page = (url: string) => fetch(url).then(async (r) => ({ status: r.status, text: await r.text() }));

const reviewFile = async (text: string) => {
  const file = `${stack.dataDir}/review-${randomUUID()}.md`;
  await writeFile(file, text);
  return file;
};

const slugUrl = (url: string) => {
  expect(url).toMatch(new RegExp(`^${stack.pages.production}/[A-Za-z0-9_-]{22,}/$`));
  return url;
};

describe('contract_viewer', () => {
  test('goes from 202 to the viewer published at an unguessable link, with one publication.published', async () => {
    const reference = `viewer-${randomUUID()}`;
    const { id } = await send({ external_reference: reference, product: 'contract_viewer' });
    const review = await waitFor(id, isPublished('contract_viewer'));

    expect(review.processing).toEqual({
      state: 'completed',
      completed_at: expect.stringMatching(TIME),
      failure_reason: null,
      failed_at: null,
    });
    const viewer = publication(review, 'contract_viewer');
    expect(viewer).toEqual({
      channel: 'contract_viewer',
      state: 'published',
      url: expect.any(String),
      published_at: expect.stringMatching(TIME),
    });
    const url = slugUrl(viewer?.url as string);
    const shown = await page(url);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('CONTRACT OF SALE OF REAL ESTATE');
    // Titled from the document; the integrator's reference is not the reader's business.
    expect(shown.text).toContain('<title>CONTRACT OF SALE OF REAL ESTATE – contract</title>');
    expect(shown.text).not.toContain(reference);

    const events = await eventsAbout(stack, 'production', id);
    expect(events.map((e) => e.type)).toEqual(['contract-reviews.publication.published']);
    // The event carries the review exactly as GET shows it (nothing changed since).
    expect(events[0]?.data).toEqual({ channel: 'contract_viewer', url, contract_review: review });
  });

  test('a new version sets the publication pending with url null, then the same link returns with the new pages', async () => {
    const { id } = await send({ external_reference: `versions-${randomUUID()}`, product: 'contract_viewer' });
    const first = await waitFor(id, isPublished('contract_viewer'));
    const url = publication(first, 'contract_viewer')?.url as string;
    const before = await page(url);

    const accepted = await sendVersion(id, 1, await contractPdf(5));
    expect(accepted.version).toBe(2);
    expect(publication(accepted, 'contract_viewer')).toEqual({
      channel: 'contract_viewer',
      state: 'pending',
      url: null,
      published_at: publication(first, 'contract_viewer') && expect.stringMatching(TIME),
    });
    expect(accepted.processing.state).toBe('running');

    const second = await waitFor(id, (r) => r.version === 2 && isPublished('contract_viewer')(r));
    expect(publication(second, 'contract_viewer')?.url).toBe(url);
    const after = await page(url);
    expect(after.status).toBe(200);
    expect(after.text).not.toBe(before.text);
    expect(after.text).toContain('v2/');
    expect(await types(id)).toEqual([
      'contract-reviews.publication.published',
      'contract-reviews.publication.published',
    ]);
  });

  test('a version sent while the previous one is still processing: only the latest is published last, both runs finish', async () => {
    const { id } = await send({
      external_reference: `overtaken-${randomUUID()}`,
      product: 'contract_viewer',
    });
    await sendVersion(id, 1, await contractPdf(4));
    const done = await waitFor(id, (r) => r.version === 2 && isPublished('contract_viewer')(r));
    const shown = await page(publication(done, 'contract_viewer')?.url as string);
    expect(shown.text.match(/<section class="page"/g)).toHaveLength(4);

    // Whatever version 1's run managed before it was overtaken, nothing of it comes after version 2.
    const versions = (await eventsAbout(stack, 'production', id)).map((e) => e.data.contract_review.version);
    expect(versions.at(-1)).toBe(2);
    expect(versions).toEqual([...versions].sort());
    // Both runs end: version 1's as overtaken (or done), version 2's done.
    const production = (await portsOf(stack)).production;
    await eventually(() => unfinishedRunsOf(production, id), isEmpty, { what: `no run of ${id} unfinished` });
  });

  test('withdraw takes the page down (410) with publication.withdrawn; a second withdraw is refused', async () => {
    const { id } = await send({ external_reference: `withdraw-${randomUUID()}`, product: 'contract_viewer' });
    const live = await waitFor(id, isPublished('contract_viewer'));
    const url = publication(live, 'contract_viewer')?.url as string;

    const withdrawn = await ops(stack, 'withdraw', id, '--channel', 'contract_viewer');
    expect(withdrawn.code).toBe(0);
    expect(publication(withdrawn.json, 'contract_viewer')).toMatchObject({ state: 'withdrawn', url });
    expect((await page(url)).status).toBe(410);
    // Polling reads are at most a second old (the operator tool changed the record in another process).
    const after = await waitFor(id, (r) => publication(r, 'contract_viewer')?.state === 'withdrawn');

    const events = await eventsAbout(stack, 'production', id);
    expect(events.map((e) => e.type)).toEqual([
      'contract-reviews.publication.published',
      'contract-reviews.publication.withdrawn',
    ]);
    expect(events[1]?.data).toEqual({ channel: 'contract_viewer', url, contract_review: after });

    const again = await ops(stack, 'withdraw', id, '--channel', 'contract_viewer');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('withdrawn, not published');
    const wrongChannel = await ops(stack, 'withdraw', id, '--channel', 'review');
    expect(wrongChannel.code).toBe(1);
    expect(wrongChannel.stderr).toContain('does not publish to review');
    const badChannel = await ops(stack, 'withdraw', id, '--channel', 'everything');
    expect(badChannel.code).toBe(1);
    expect(await types(id)).toHaveLength(2);
  });

  test('publish-review is refused for a product no lawyer reviews, and records nothing', async () => {
    const { id } = await send({
      external_reference: `no-lawyer-${randomUUID()}`,
      product: 'contract_viewer',
    });
    await waitFor(id, isPublished('contract_viewer'));
    const refused = await ops(stack, 'publish-review', id);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('which no lawyer reviews');
    expect(await types(id)).toEqual(['contract-reviews.publication.published']);
  });
});

describe('legal_information', () => {
  test('viewer, analysis, lawyer review requested; publish-review completes it and publishes the review page', async () => {
    const reference = `info-${randomUUID()}`;
    const { id } = await send({
      external_reference: reference,
      product: 'legal_information',
      review: 'lawyer',
    });
    const requested = await waitFor(id, (r) => r.lawyer_review.state === 'requested');
    expect(publication(requested, 'contract_viewer')?.state).toBe('published');
    expect(publication(requested, 'review')).toMatchObject({ state: 'pending', url: null });
    expect(requested.analysis).toEqual({
      state: 'completed',
      completed_at: expect.stringMatching(TIME),
      failure_reason: null,
      failed_at: null,
    });
    expect(requested.lawyer_review).toEqual({
      state: 'requested',
      requested_at: expect.stringMatching(TIME),
      completed_at: null,
    });
    expect(requested.lawyer_review.requested_at >= requested.analysis.completed_at).toBe(true);

    const text = '# Review\n\nThe **deposit** is payable on signing. <script>alert(1)</script>\n';
    const published = await ops(stack, 'publish-review', id, '--text', await reviewFile(text));
    expect(published.code).toBe(0);
    expect(published.json?.lawyer_review).toEqual({
      state: 'completed',
      requested_at: requested.lawyer_review.requested_at,
      completed_at: expect.stringMatching(TIME),
    });

    const done = await waitFor(id, isPublished('review'));
    const url = slugUrl(publication(done, 'review')?.url as string);
    expect(url).not.toBe(publication(done, 'contract_viewer')?.url);
    const shown = await page(url);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('<strong>deposit</strong> is payable on signing');
    // The operator tool is no one with a name (the back office's publish names its lawyer); the header
    // names the organisation that sent it.
    expect(shown.text).toContain('<p class="review-meta">Reviewed by a lawyer on <time');
    expect(shown.text).toContain('<p class="sender">From Local development</p>');
    expect(shown.text).not.toContain('<script>alert(1)</script>');
    expect(shown.text).toContain('CONTRACT OF SALE OF REAL ESTATE');

    const events = await eventsAbout(stack, 'production', id);
    expect(events.map((e) => [e.type, e.data.channel])).toEqual([
      ['contract-reviews.publication.published', 'contract_viewer'],
      ['contract-reviews.analysis.completed', undefined],
      ['contract-reviews.lawyer_review.requested', undefined],
      ['contract-reviews.lawyer_review.completed', undefined],
      ['contract-reviews.publication.published', 'review'],
    ]);
    // Each event shows the review as it was at that moment.
    expect(events[1]?.data.contract_review.lawyer_review.state).toBe('not_requested');
    expect(events[2]?.data.contract_review.lawyer_review.state).toBe('requested');
    expect(events[3]?.data.contract_review.lawyer_review.state).toBe('completed');
    expect(publication(events[3]?.data.contract_review, 'review')?.state).toBe('pending');
    expect(events[4]?.data).toEqual({ channel: 'review', url, contract_review: done });

    const again = await ops(stack, 'publish-review', id);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('published already');
  });

  test('publish-review without --text publishes the analysis as drafted for the lawyer', async () => {
    const { id } = await send({
      external_reference: `draft-${randomUUID()}`,
      product: 'legal_information',
      review: 'lawyer',
    });
    await waitFor(id, (r) => r.lawyer_review.state === 'requested');
    expect((await ops(stack, 'publish-review', id)).code).toBe(0);
    const done = await waitFor(id, isPublished('review'));
    const shown = await page(publication(done, 'review')?.url as string);
    expect(shown.text).toMatch(/Purchaser|Vendor|Price/);
  });

  test('a new version asks the lawyer again, and the review returns at the same link after publish-review', async () => {
    const { id } = await send({
      external_reference: `info-v-${randomUUID()}`,
      product: 'legal_information',
      review: 'lawyer',
    });
    await waitFor(id, (r) => r.lawyer_review.state === 'requested');
    expect((await ops(stack, 'publish-review', id, '--text', await reviewFile('First review.'))).code).toBe(
      0,
    );
    const first = await waitFor(id, isPublished('review'));
    const reviewUrl = publication(first, 'review')?.url;

    const accepted = await sendVersion(id, 1, await contractPdf(4));
    expect(accepted.lawyer_review).toEqual({
      state: 'not_requested',
      requested_at: null,
      completed_at: null,
    });
    expect(publication(accepted, 'review')).toMatchObject({ state: 'pending', url: null });
    await waitFor(id, (r) => r.version === 2 && r.lawyer_review.state === 'requested');
    expect((await ops(stack, 'publish-review', id, '--text', await reviewFile('Second review.'))).code).toBe(
      0,
    );
    const second = await waitFor(id, (r) => r.version === 2 && isPublished('review')(r));
    expect(publication(second, 'review')?.url).toBe(reviewUrl);
    expect((await page(reviewUrl as string)).text).toContain('Second review.');
  });
});

describe('the wait for the lawyer (a task token)', () => {
  /** The stored record, as the workers see it (the API never shows the token). */
  const stored = async (id: string) => (await portsOf(stack)).production.contractReviews.get(id);
  const unfinishedRuns = async (id: string) => unfinishedRunsOf((await portsOf(stack)).production, id);
  const waitingWith = async (id: string, version: number) =>
    (
      await eventually(
        () => stored(id),
        (review) => review?.version === version && review.lawyerReview?.waitToken !== undefined,
        { what: `version ${version} of ${id} waiting for the lawyer` },
      )
    )?.lawyerReview?.waitToken;

  test('the contract run waits, for as long as the lawyer takes, and publish-review resumes that same run, which publishes the review', async () => {
    const { id } = await send({
      external_reference: `wait-${randomUUID()}`,
      product: 'legal_information',
      review: 'lawyer',
    });
    const waitToken = await waitingWith(id, 1);
    // The token is the run's own (the local runner makes it from the run's name), and never shown.
    expect(waitToken).toBe(`local-wait/production/${id}/v1/contract/AwaitLawyerReview`);
    const shown = await call(`${stack.production}/v1/contract-reviews/${id}`, {
      headers: bearer(token),
    });
    expect(JSON.stringify(shown.body)).not.toContain('local-wait');

    // Time passes (another contract goes from upload to published) and the run still waits, unfinished.
    const other = await send({ external_reference: `meanwhile-${randomUUID()}`, product: 'contract_viewer' });
    await waitFor(other.id, isPublished('contract_viewer'));
    expect(await unfinishedRuns(id)).toEqual([
      { kind: 'contract', environment: 'production', contractReviewId: id, version: 1 },
    ]);
    expect((await stored(id))?.lawyerReview).toMatchObject({ state: 'requested', waitToken });

    expect((await ops(stack, 'publish-review', id, '--text', await reviewFile('Waited for.'))).code).toBe(0);
    const done = await waitFor(id, isPublished('review'));
    expect((await page(publication(done, 'review')?.url as string)).text).toContain('Waited for.');
    // The waiting run published it and finished; no review run was recorded for it.
    await eventually(() => unfinishedRuns(id), isEmpty, { what: `no run of ${id} unfinished` });
    expect((await stored(id))?.lawyerReview?.waitToken).toBeUndefined();
    expect(await eventsAbout(stack, 'production', id).then((events) => events.map((e) => e.type))).toEqual([
      'contract-reviews.publication.published',
      'contract-reviews.analysis.completed',
      'contract-reviews.lawyer_review.requested',
      'contract-reviews.lawyer_review.completed',
      'contract-reviews.publication.published',
    ]);
  });

  test('a new version while the review waits ends the old wait; the new version waits with its own token', async () => {
    const { id } = await send({
      external_reference: `superseded-${randomUUID()}`,
      product: 'legal_information',
      review: 'lawyer',
    });
    const first = await waitingWith(id, 1);
    await sendVersion(id, 1, await contractPdf(4));
    const second = await waitingWith(id, 2);
    expect(second).toBe(`local-wait/production/${id}/v2/contract/AwaitLawyerReview`);
    expect(second).not.toBe(first);
    // Version 1's run ended (superseded); only version 2's waits.
    await eventually(
      () => unfinishedRuns(id),
      (runs) =>
        runs.length === 1 && runs[0]?.kind === 'contract' && 'version' in runs[0] && runs[0].version === 2,
      { what: `only version 2's run of ${id} unfinished` },
    );
    expect((await ops(stack, 'publish-review', id, '--text', await reviewFile('Review of v2.'))).code).toBe(
      0,
    );
    const done = await waitFor(id, (r) => r.version === 2 && isPublished('review')(r));
    expect((await page(publication(done, 'review')?.url as string)).text).toContain('Review of v2.');
    await eventually(() => unfinishedRuns(id), isEmpty, { what: `no run of ${id} unfinished` });
  });
});

describe('legal_advice', () => {
  test('analysis and lawyer review, then one review_snapshot page addressed to the recipient', async () => {
    const { id } = await send({
      external_reference: `advice-${randomUUID()}`,
      product: 'legal_advice',
      recipient: { first_name: 'Ada', last_name: "O'Brien <b>", email: 'ada@example.com' },
    });
    await waitFor(id, (r) => r.lawyer_review.state === 'requested');
    expect((await ops(stack, 'publish-review', id, '--text', await reviewFile('Advice for Ada.'))).code).toBe(
      0,
    );
    const done = await waitFor(id, isPublished('review_snapshot'));
    const url = slugUrl(publication(done, 'review_snapshot')?.url as string);
    const shown = await page(url);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain('Advice for Ada.');
    expect(shown.text).toContain('O&#39;Brien &lt;b&gt;');
    expect(shown.text).toContain('CONTRACT OF SALE OF REAL ESTATE');
    expect(await types(id)).toEqual([
      'contract-reviews.analysis.completed',
      'contract-reviews.lawyer_review.requested',
      'contract-reviews.lawyer_review.completed',
      'contract-reviews.publication.published',
    ]);
  });
});

describe('a PDF that fails processing', () => {
  test('ends failed (processing_error) after 1 + 3 attempts, announced at the first failure and at the end; nothing is published', async () => {
    const { id } = await send(
      { external_reference: `broken-${randomUUID()}`, product: 'legal_information', review: 'lawyer' },
      await undrawablePdf(3),
    );
    const failed = await waitFor(id, (r) => publication(r, 'contract_viewer')?.state === 'failed');
    expect(failed.processing).toEqual({
      state: 'failed',
      completed_at: null,
      failure_reason: 'processing_error',
      failed_at: expect.stringMatching(TIME),
    });
    expect(failed.publications.map((p: { state: string }) => p.state)).toEqual(['failed', 'failed']);
    expect(failed.lawyer_review.state).toBe('not_requested');

    const events = await eventsAbout(stack, 'production', id);
    expect(events.map((e) => e.type)).toEqual([
      'contract-reviews.processing.failed',
      'contract-reviews.processing.failed',
    ]);
    expect(events[0]?.data.contract_review.processing).toMatchObject({
      state: 'failed',
      failure_reason: 'processing_error',
    });
    // The first while the retries may still publish it; the last with the final state, exactly as GET.
    expect(events[0]?.data.contract_review.publications.map((p: { state: string }) => p.state)).toEqual([
      'pending',
      'pending',
    ]);
    expect(events[1]?.data.contract_review).toEqual(failed);

    // The run is recorded finished, failed: no re-drive starts it again, so its attempts are all made.
    const run = await untilFinished(stack, {
      kind: 'contract',
      environment: 'production',
      contractReviewId: id,
      version: 1,
    });
    expect(run.outcome).toBe('failed');
    const attempts = stack
      .output()
      .split('\n')
      .filter((line) => line.includes('processing attempt failed') && line.includes(id));
    expect(attempts).toHaveLength(4);
    expect(await unfinishedRunsOf((await portsOf(stack)).production, id)).toEqual([]);

    // No review is due for a contract that could not be read.
    const refused = await ops(stack, 'publish-review', id);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('No review');
    expect(await types(id)).toEqual([
      'contract-reviews.processing.failed',
      'contract-reviews.processing.failed',
    ]);
  });
});
