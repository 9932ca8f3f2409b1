// The corpus of bad PDFs over HTTP against the real local stack, each with what it really does: refused
// at upload (422 file_rejected, nothing created, no sandbox budget used), accepted and then failed in
// processing (processing.failed at the first failure and at the end), or published whole (250 pages).
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { bearer, call, contractParts, exchange, expectError, upload } from '../support/api-client';
import { eventually, isEmpty } from '../support/eventually';
import { devBootstrap, type RunningStack, useLocalStack } from '../support/local-stack';
import {
  contractPdf,
  damagedPdf,
  encryptedPdf,
  notAPdf,
  repeatedPagePdf,
  truncatedPdf,
  undrawablePdf,
  zeroPagePdf,
} from '../support/pdfs';
import { eventsAbout, isPublished, publication, unfinishedRunsOf, waitForReview } from '../support/pipeline';
import { createTenant, portsOf } from '../support/tenants';

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

let stack: RunningStack;
let production: string;
let sandbox: string;
let sandboxOrganisationId: string;

// DELAY_SCALE shortens the processing retries' backoff (10 s first) to a tenth of a second.
useLocalStack(
  (started) => {
    stack = started;
  },
  { env: { RATE_LIMITS: 'off', DELAY_SCALE: '100' } },
);

beforeAll(async () => {
  const boot = await devBootstrap(stack);
  production = await exchange(stack.production, boot.keys.production);
  // A tenant of its own in the sandbox, its budget (3) untouched by other tests.
  const tenant = await createTenant(stack, 'badpdfs');
  sandboxOrganisationId = tenant.organisationId;
  sandbox = await exchange(stack.sandbox, tenant.keys.sandbox);
}, 180_000);

const environments = () => ({
  production: { base: stack.production, token: production },
  sandbox: { base: stack.sandbox, token: sandbox },
});

type Environment = 'production' | 'sandbox';

const send = (environment: Environment, file: Uint8Array, request: Record<string, unknown>) => {
  const { base, token } = environments()[environment];
  return upload(`${base}/v1/contract-reviews`, token, contractParts(file, request));
};

const listed = async (environment: Environment, externalReference: string) => {
  const { base, token } = environments()[environment];
  const answer = await call(
    `${base}/v1/contract-reviews?external_reference=${encodeURIComponent(externalReference)}`,
    { headers: bearer(token) },
  );
  expect(answer.status).toBe(200);
  return answer.body.data as unknown[];
};

const sandboxUsed = async () =>
  (await (await portsOf(stack)).sandbox.sandboxBudgets.get(sandboxOrganisationId)).used;

const waitFor = (id: string, done: Parameters<typeof waitForReview>[3], timeoutMs?: number) =>
  waitForReview(stack.production, production, id, done, timeoutMs);

describe('refused at upload: 422 file_rejected, nothing created, no budget used', () => {
  const MESSAGE_START = 'The file is not a readable PDF: ';
  const rejected: Array<[string, () => Uint8Array | Promise<Uint8Array>, string]> = [
    [
      'a truncated PDF (its first half)',
      () => truncatedPdf(0.5),
      'The file is damaged or truncated: its PDF structure cannot be read.',
    ],
    [
      'a truncated PDF (cut at 90%)',
      () => truncatedPdf(0.9),
      'The file is damaged or truncated: its PDF structure cannot be read.',
    ],
    ['random bytes, not a PDF', () => notAPdf('random'), 'The file is not a PDF.'],
    ['an HTML error page, not a PDF', () => notAPdf('html'), 'The file is not a PDF.'],
    [
      'a PDF with a user password',
      () => encryptedPdf(),
      'The PDF is password protected; send it without a password.',
    ],
    ['a PDF with no pages', () => zeroPagePdf(), 'The PDF has no pages.'],
    [
      'a PDF header followed by noise (damaged)',
      () => damagedPdf(),
      'The file is damaged or truncated: its PDF structure cannot be read.',
    ],
  ];

  test.each(rejected)(
    '%s: 422 file_rejected in both environments, with its reason',
    async (_, make, reason) => {
      const file = await make();
      for (const environment of ['production', 'sandbox'] as const) {
        const reference = `bad-${randomUUID()}`;
        const answer = await send(environment, file, {
          external_reference: reference,
          product: 'contract_viewer',
        });
        expectError(answer, 422, 'file_rejected');
        const message: string = answer.body.error.message;
        expect({ environment, start: message.slice(0, MESSAGE_START.length) }).toEqual({
          environment,
          start: MESSAGE_START,
        });
        expect(message).toContain(reason);
        expect(message.endsWith(' Send the contract as a PDF.')).toBe(true);
        // Nothing was created: the external reference is still free, and no budget was used.
        expect(await listed(environment, reference)).toEqual([]);
      }
      expect(await sandboxUsed()).toBe(0);
    },
  );

  test('each refusal says its reason once, as a sentence of its own', async () => {
    const messages: string[] = [];
    for (const [, make] of rejected) {
      const answer = await send('production', await make(), {
        external_reference: `bad-${randomUUID()}`,
        product: 'contract_viewer',
      });
      messages.push(answer.body.error.message);
    }
    expect(messages).toEqual(
      rejected.map(([, , reason]) => `${MESSAGE_START}${reason} Send the contract as a PDF.`),
    );
  });

  test('the sandbox budget does count an accepted PDF (so the checks above can see a use)', async () => {
    const reference = `good-${randomUUID()}`;
    const answer = await send('sandbox', await contractPdf(1), {
      external_reference: reference,
      product: 'contract_viewer',
    });
    expect(answer.status).toBe(202);
    expect(await listed('sandbox', reference)).toEqual([answer.body]);
    expect(await sandboxUsed()).toBe(1);
  });
});

describe('accepted, then failed in processing', () => {
  test('no page can be drawn: 202, then processing failed (processing_error), announced at the first failure and at the end', async () => {
    const reference = `broken-page-${randomUUID()}`;
    const answer = await send('production', await undrawablePdf(3), {
      external_reference: reference,
      product: 'contract_viewer',
    });
    expect(answer.status).toBe(202);
    expect(answer.body.processing.state).toBe('running');
    const { id } = answer.body as { id: string };

    const failed = await waitFor(id, (r) => publication(r, 'contract_viewer')?.state === 'failed');
    expect(failed.processing).toEqual({
      state: 'failed',
      completed_at: null,
      failure_reason: 'processing_error',
      failed_at: expect.stringMatching(TIME),
    });
    expect(failed.publications).toEqual([
      { channel: 'contract_viewer', state: 'failed', url: null, published_at: null },
    ]);
    expect(await listed('production', reference)).toEqual([failed]);

    const events = await eventsAbout(stack, 'production', id);
    expect(events.map((e) => e.type)).toEqual([
      'contract-reviews.processing.failed',
      'contract-reviews.processing.failed',
    ]);
    expect(events[1]?.data.contract_review).toEqual(failed);
    expect(events[0]?.data.contract_review.processing).toEqual({
      state: 'failed',
      completed_at: null,
      failure_reason: 'processing_error',
      failed_at: expect.stringMatching(TIME),
    });
    // The run finishes (its last step, just after marking the publication failed): nothing is left to
    // re-drive.
    const ports = (await portsOf(stack)).production;
    await eventually(() => unfinishedRunsOf(ports, id), isEmpty, { what: `no run of ${id} unfinished` });
  });
});

describe('published whole', () => {
  const PAGES = 250;
  test('a 250-page contract: the viewer is published with 250 page sections', async () => {
    // One light A6 page (a heading and a few lines) shared by all 250 page objects, as the renderer's
    // test makes it. Each page takes the same steps from upload to published, so 250 show a long
    // contract published whole at a quarter of 1,000's time; how the renderer fares at 1,000 pages (its
    // deadline) is test/adapters/pdf-render.test.ts's, its memory trend `npm run bench -- render`'s.
    const source = await PDFDocument.create();
    const font = await source.embedFont(StandardFonts.Helvetica);
    const page = source.addPage([297.64, 419.53]);
    page.drawText('CONTRACT OF SALE OF REAL ESTATE', { x: 20, y: 390, size: 12, font });
    for (let line = 0; line < 5; line++)
      page.drawText(`Schedule item ${line + 1}: chattels included.`, {
        x: 20,
        y: 360 - 14 * line,
        size: 9,
        font,
      });
    const long = await repeatedPagePdf(await source.save(), PAGES);

    const answer = await send('production', long, {
      external_reference: `long-${randomUUID()}`,
      product: 'contract_viewer',
    });
    expect(answer.status).toBe(202);
    const { id } = answer.body as { id: string };

    const review = await waitFor(id, isPublished('contract_viewer'), 290_000);
    expect(review.processing).toMatchObject({ state: 'completed', failure_reason: null });
    const url = publication(review, 'contract_viewer')?.url as string;
    const shown = await fetch(url);
    expect(shown.status).toBe(200);
    const html = await shown.text();
    const sections = [...html.matchAll(/<section class="page" id="page-(\d+)"/g)].map((m) => Number(m[1]));
    expect(sections).toEqual(Array.from({ length: PAGES }, (_, i) => i + 1));
    expect(html).toContain(`Page ${PAGES}<span class="visually-hidden"> of ${PAGES}</span>`);

    expect((await eventsAbout(stack, 'production', id)).map((e) => e.type)).toEqual([
      'contract-reviews.publication.published',
    ]);
  }, 300_000);
});

describe('real-world PDFs that once sank a contract (../shared/fixtures/real-world-pdfs)', () => {
  const REAL_WORLD_PDFS = fileURLToPath(
    new URL('../../../shared/fixtures/real-world-pdfs/', import.meta.url),
  );

  /** Sends a fixture, waits until its viewer is live, and reads the viewer's page. */
  const published = async (name: string) => {
    const answer = await send('production', await readFile(join(REAL_WORLD_PDFS, name)), {
      external_reference: `real-world-${name}-${randomUUID()}`,
      product: 'contract_viewer',
    });
    expect(answer.status).toBe(202);
    const review = await waitFor(answer.body.id as string, isPublished('contract_viewer'));
    expect(review.processing).toMatchObject({ state: 'completed', failure_reason: null });
    const shown = await fetch(publication(review, 'contract_viewer')?.url as string);
    expect(shown.status).toBe(200);
    return shown.text();
  };

  test('issue16263.pdf, a slide asking for a 151-megapixel soft mask: published without that image, which the viewer names', async () => {
    const html = await published('issue16263.pdf');
    expect(html).toContain('Page <a href="#page-1">1</a> is shown without some of its pictures.');
    expect(html).toContain(
      '<p class="page-notice" role="note">Page 1 is shown without some of its pictures: they could not be displayed.',
    );
    // The page is drawn (it is described as the page), not a placeholder.
    expect(html).toMatch(/<img class="scan" src="[^"]+" alt="Page 1 of 1"/);
    // Its text is still there to find and select.
    expect(html).toMatch(/<div class="text-layer"><span/);
  });

  test('poppler-90-0-fuzzed.pdf, damaged: published with all 16 pages, the ones shown in part named', async () => {
    const html = await published('poppler-90-0-fuzzed.pdf');
    const sections = [...html.matchAll(/<section class="page" id="page-(\d+)"/g)].map((m) => Number(m[1]));
    expect(sections).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(html).toContain('<p class="notice" role="status">');
    expect(html).toMatch(/<p class="page-notice( over)?" role="note">Page \d+ /);
  });
});
