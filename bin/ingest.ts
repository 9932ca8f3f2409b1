// bin -> the upload ingest service (ECS Fargate behind CloudFront): the API host the local stack uses,
// wired to AWS, for the paths API Gateway cannot take (100 MB bodies). CloudFront routes by path, not
// method, so every method of those paths arrives here and is answered by the same handler code.

import { timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as z from 'zod/mini';
import { lazyPdfInspector } from '../lambdas/adapters/pdf/lazy-pdf-ports';
import { log } from '../lambdas/core/log';
import { apiListener } from '../lambdas/hosts/api-host';
import { kmsTokenKeys } from '../lambdas/hosts/aws/kms-token-keys';
import { awsServices } from '../lambdas/hosts/aws/services';
import { answerProtocolErrorsAsJson } from '../lambdas/hosts/http-protocol-errors';

/** How soon a request history record is written once its call is answered. */
const HISTORY_FLUSH_MS = 100;

const IngestConfig = z.object({
  PORT: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(65_535)), 8080),
  ORIGIN_VERIFY_SECRET_ARN: z.string().check(z.minLength(1)),
  ORIGIN_VERIFY_HEADER: z._default(z.string().check(z.minLength(1)), 'x-origin-verify'),
});

const config = IngestConfig.parse(process.env);
const secret = await new SecretsManagerClient({}).send(
  new GetSecretValueCommand({ SecretId: config.ORIGIN_VERIFY_SECRET_ARN }),
);
const expected = Buffer.from(secret.SecretString ?? '');
if (expected.length === 0) throw new Error('the origin-verify secret has no value');
// It serves the two upload routes, which inspect the PDFs they receive. It runs on between requests, so
// it writes the request history as the local stack does: in batches, on a short timer.
const services = await awsServices(
  { pdfs: lazyPdfInspector, tokenKeys: kmsTokenKeys },
  { flushAfterMs: HISTORY_FLUSH_MS },
);
const serve = apiListener(services, services.settings.environment);
const header = config.ORIGIN_VERIFY_HEADER.toLowerCase();

/** Only CloudFront, which adds the secret header, may reach the service. */
const fromCloudFront = (value: string | string[] | undefined): boolean => {
  const given = Buffer.from(typeof value === 'string' ? value : '');
  return given.length === expected.length && timingSafeEqual(given, expected);
};

const server = createServer({ requestTimeout: 15 * 60_000 }, (request, response) => {
  if (request.url === '/healthz') {
    response.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
    return;
  }
  if (!fromCloudFront(request.headers[header])) {
    response.writeHead(403, { 'Content-Type': 'text/plain', Connection: 'close' }).end('forbidden');
    request.resume();
    return;
  }
  void serve(request, response);
});

answerProtocolErrorsAsJson(server);

server.listen(config.PORT, () => log.info('upload ingest listening', { port: config.PORT }));

// ECS stops a task with SIGTERM: finish the uploads under way, write their request history, then exit.
process.on('SIGTERM', () =>
  server.close(() => void services.ports.apiRequestRecorder.flush().then(() => process.exit(0))),
);
