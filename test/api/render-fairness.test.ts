// Fair rendering on the real local stack (issue 26 item 4): one organisation's burst of large contracts
// holds at most its share of the renders (one of the local stack's two), so another organisation's
// contract starts at once and is read long before the burst is through; and every contract of the
// burst is still read in the end (an attempt that waited its turn is not lost). The order is read from
// the service's own `processing.completed_at`, not from when the test happened to look.
import { randomUUID } from 'node:crypto';
import { contractParts, exchange, upload } from '../support/api-client';
import { type RunningStack, useLocalStack } from '../support/local-stack';
import { contractPdf } from '../support/pdfs';
import { waitForReview } from '../support/pipeline';
import { createTenant } from '../support/tenants';

let stack: RunningStack;

useLocalStack(
  (started) => {
    stack = started;
  },
  { env: { RATE_LIMITS: 'off' } },
);

const BURST = 6;

const send = async (token: string, pdf: Uint8Array, reference: string) => {
  const answer = await upload(
    `${stack.production}/v1/contract-reviews`,
    token,
    contractParts(pdf, { external_reference: reference, product: 'contract_viewer' }),
  );
  expect(answer.status).toBe(202);
  return (answer.body as { id: string }).id;
};

const processedAt = async (token: string, id: string): Promise<string> => {
  const review = await waitForReview(
    stack.production,
    token,
    id,
    (body) => body.processing.state === 'completed',
    240_000,
  );
  return review.processing.completed_at as string;
};

test('a second organisation’s contract is read while another’s burst waits its turn; the whole burst is read after', async () => {
  const flooder = await createTenant(stack, 'flood');
  const bystander = await createTenant(stack, 'bystander');
  const flooding = await exchange(stack.production, flooder.keys.production);
  const calm = await exchange(stack.production, bystander.keys.production);
  const large = await contractPdf(12);
  const burst: string[] = [];
  for (let n = 0; n < BURST; n++) burst.push(await send(flooding, large, `flood-${n}-${randomUUID()}`));
  // Sent after the whole burst is queued: first come, first served would read it seventh.
  const theirs = await send(calm, await contractPdf(3), `calm-${randomUUID()}`);

  const theirsAt = await processedAt(calm, theirs);
  const burstAt = await Promise.all(burst.map((id) => processedAt(flooding, id)));
  // Two renders at once, one per organisation: the burst's first (and perhaps its second) was read
  // before, the rest after. Served in order it would have come after at least four of the burst.
  const readBefore = burstAt.filter((at) => at < theirsAt).length;
  expect(readBefore).toBeLessThanOrEqual(2);
}, 600_000);
