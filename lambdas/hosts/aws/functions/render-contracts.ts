// host -> the function of rendering: the render queue's event source mapping hands it one attempt of a
// contract run's Process step at a time; it reads the version (page images and text) and answers the
// run's Task with its token. It renders PDFs, one organisation at most `RENDERS_PER_ORGANISATION` at
// once: an attempt over that goes back to `RENDER_QUEUE_URL` for a while (lambdas/hosts/queue-consumers/render-records.ts).
import * as z from 'zod/mini';
import { lazyRenderer } from '../../../adapters/pdf/lazy-pdf-ports';
import { createSqsClient } from '../../../adapters/queues/sqs-client';
import { sqsWorkQueue } from '../../../adapters/queues/sqs-work-queue';
import {
  type RenderFairness,
  type RenderServices,
  renderRecords,
} from '../../queue-consumers/render-records';
import { queueLambda } from '../lambda';
import { awsBlobs, awsWorkflows } from '../services';

/** How long an attempt over its organisation's share waits before it is seen again (each look is an invocation). */
const RETRY_SECONDS = 30;

const FairnessConfig = z.object({
  RENDER_QUEUE_URL: z.url(),
  RENDERS_PER_ORGANISATION: z.coerce.number().check(z.int(), z.positive()),
  AWS_REGION: z.string().check(z.minLength(1)),
});

let fairness: RenderFairness | undefined;
const renderFairness = (): RenderFairness => {
  if (fairness) return fairness;
  const config = FairnessConfig.parse(process.env);
  fairness = {
    perOrganisation: config.RENDERS_PER_ORGANISATION,
    queue: sqsWorkQueue(createSqsClient({ region: config.AWS_REGION }), config.RENDER_QUEUE_URL),
    retrySeconds: RETRY_SECONDS,
  };
  return fairness;
};

export const handler = queueLambda((services: RenderServices) => renderRecords(services, renderFairness()), {
  blobs: awsBlobs,
  workflows: awsWorkflows,
  renderer: (host) => lazyRenderer(awsBlobs(host)),
});
