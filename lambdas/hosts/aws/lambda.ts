// host -> the four shapes of a deployed function's handler, each given its services by the AWS
// composition root: an API endpoint (API Gateway's event), a workflow's task (the state's input), a
// queue's consumer (an SQS event source mapping's batch) and a job over the ports (the publisher, the
// re-drive). Each function's entry (functions/) picks one.
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  SQSBatchResponse,
  SQSEvent,
} from 'aws-lambda';
import type { Endpoint } from '../../api/http/endpoint';
import { setPersistentLogKeys } from '../../core/log';
import type { ApiRequestRecorder, Ports } from '../../core/ports';
import type { Services } from '../../core/services';
import type { Worker } from '../../workers/worker';
import { kmsTokenKeys } from './kms-token-keys';
import { awsServices, type PdfWiring } from './services';

// Every line this function logs names it (Lambda's JSON log format carries its lines as they are).
setPersistentLogKeys({ function: process.env.AWS_LAMBDA_FUNCTION_NAME });

/**
 * How long an endpoint's function waits for its request history to be written before it returns anyway
 * (the write goes on when the instance next runs, if it does): a slow or throttled table delays an answer
 * by at most this, and never fails it.
 */
const HISTORY_FLUSH_WAIT_MS = 500;

/** `recorder.flush()`, or at most `ms` of it. */
const flushWithin = async (recorder: ApiRequestRecorder, ms: number): Promise<void> => {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([recorder.flush(), waited]);
  clearTimeout(timer);
};

/**
 * An endpoint as a Lambda handler over `services`. Nothing runs in a Lambda once its handler has returned
 * (the instance is frozen), so the call's request history is written before it returns: one
 * BatchWriteItem of one item, a few milliseconds added to the answer's latency and the function's billed
 * time, on the calls that are recorded (an accepted credential) only.
 */
export const endpointHandler =
  (endpoint: Endpoint, services: () => Promise<Services>, flushWaitMs = HISTORY_FLUSH_WAIT_MS) =>
  async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    let built: Services | undefined;
    const result = await endpoint.handle(event, async () => {
      built = await services();
      return built;
    });
    if (built) await flushWithin(built.ports.apiRequestRecorder, flushWaitMs);
    return result;
  };

/** The handler of an endpoint's function, which checks access tokens; `pdf` for an endpoint that reads PDFs. */
export const apiLambda = (endpoint: Endpoint, pdf?: PdfWiring) =>
  endpointHandler(endpoint, () => awsServices({ ...pdf, tokenKeys: kmsTokenKeys }));

/** The handler of a workflow task's function (Step Functions invokes it with the state's input). */
export const workerLambda =
  <O>(worker: Worker<O>, pdf?: PdfWiring) =>
  async (event: unknown): Promise<O> =>
    worker.run(event, await awsServices(pdf));

/** The handler of a job that only needs the ports (its event says nothing it needs). */
export const portsLambda =
  <O>(job: (ports: Ports) => Promise<O>) =>
  async (): Promise<O> =>
    job((await awsServices()).ports);

/**
 * The handler of a queue's consumer: a batch from its event source mapping, failed records reported;
 * `pdf` for a consumer that reads PDFs.
 */
export const queueLambda =
  (consumer: (services: Services) => (event: SQSEvent) => Promise<SQSBatchResponse>, pdf?: PdfWiring) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> =>
    consumer(await awsServices(pdf))(event);
