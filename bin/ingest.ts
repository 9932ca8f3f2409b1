// bin -> the upload ingest service (ECS Fargate behind CloudFront): the API host the local stack uses,
// wired to AWS, for the paths API Gateway cannot take (100 MB bodies). CloudFront routes by path, not
// method, so every method of those paths arrives here and is answered by the same handler code.

import { performance } from 'node:perf_hooks';
import * as z from 'zod/mini';
import { sdkOriginSecret } from '../lambdas/adapters/origin-secret-ports';
import { lazyPdfInspector } from '../lambdas/adapters/pdf/lazy-pdf-ports';
import { API_ENDPOINTS, type ApiPorts } from '../lambdas/api/endpoints';
import { log } from '../lambdas/core/log';
import { acceptedValues } from '../lambdas/core/origin-secret-ports';
import { apiListener } from '../lambdas/hosts/api-host';
import { kmsTokenIssuer, kmsTokenVerifier } from '../lambdas/hosts/aws/kms-token-keys';
import { awsBlobs, awsServices, awsWorkflows } from '../lambdas/hosts/aws/services';
import { createJsonServer } from '../lambdas/hosts/http-protocol-errors';
import { originVerifier } from '../lambdas/hosts/origin-verify';

/** How soon a request history record is written once its call is answered. */
const HISTORY_FLUSH_MS = 100;

const IngestConfig = z.object({
  PORT: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(65_535)), 8080),
  ORIGIN_VERIFY_SECRET_ARN: z.string().check(z.minLength(1)),
  ORIGIN_VERIFY_HEADER: z._default(z.string().check(z.minLength(1)), 'x-origin-verify'),
  AWS_REGION: z.string().check(z.minLength(1)),
});

const config = IngestConfig.parse(process.env);
// The secret is rotated (lib/upload-ingest.ts): its current, pending and previous values are accepted,
// read again every few minutes and when a header matches none.
const secret = await sdkOriginSecret(config.ORIGIN_VERIFY_SECRET_ARN, config.AWS_REGION);
const originCheck = originVerifier({ read: () => acceptedValues(secret), now: () => performance.now() });
await originCheck.start();
// It serves the two upload routes, which inspect the PDFs they receive. It runs on between requests, so
// it writes the request history as the local stack does: in batches, on a short timer.
// Its router holds every /v1 endpoint, so it is wired with every port they call.
const services = await awsServices<ApiPorts>(
  {
    tokenIssuer: kmsTokenIssuer,
    tokenVerifier: kmsTokenVerifier,
    blobs: awsBlobs,
    workflows: awsWorkflows,
    pdfs: (host) => lazyPdfInspector(awsBlobs(host)),
  },
  { flushAfterMs: HISTORY_FLUSH_MS },
);
const serve = apiListener(services, API_ENDPOINTS);
const header = config.ORIGIN_VERIFY_HEADER.toLowerCase();

const server = createJsonServer({ requestTimeout: 15 * 60_000 }, (request, response) => {
  if (request.url === '/healthz') {
    response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    return;
  }
  // Only CloudFront, which adds the secret header, may reach the service.
  void originCheck.accepts(request.headers[header]).then((fromCloudFront) => {
    if (fromCloudFront) return serve(request, response);
    response.writeHead(403, { 'Content-Type': 'text/plain', Connection: 'close' }).end('forbidden');
    request.resume();
  });
});

server.listen(config.PORT, () => log.info('upload ingest listening', { port: config.PORT }));

// ECS stops a task with SIGTERM: finish the uploads under way, write their request history, then exit.
process.on('SIGTERM', () =>
  server.close(() => void services.ports.apiRequestRecorder.flush().then(() => process.exit(0))),
);
