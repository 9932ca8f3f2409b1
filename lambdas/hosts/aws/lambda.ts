// host -> the four shapes of a deployed function's handler, each given its services by the AWS
// composition root: an API endpoint (API Gateway's event), a workflow's task (the state's input), a
// queue's consumer (an SQS event source mapping's batch) and a job over the ports (the publisher, the
// re-drive). Each function's entry (functions/) picks one.
import type {
  APIGatewayProxyEventV2,
  APIGatewayProxyStructuredResultV2,
  Context,
  SQSBatchResponse,
  SQSEvent,
} from 'aws-lambda';
import { responseOf } from '../../api/http/answer';
import type { AnsweringPorts, Endpoint } from '../../api/http/endpoint';
import { fromRequest } from '../../api/http/request';
import { setPersistentLogKeys } from '../../core/log';
import type { Services } from '../../core/services';
import type { Worker } from '../../workers/worker';
import { type AfterResponse, registerAfterResponse } from './after-response';
import { lambdaHandler } from './lambda-adapter';
import { type AwsWiringArg, awsServices } from './services';

// Every line this function logs names it (Lambda's JSON log format carries its lines as they are).
setPersistentLogKeys({ function: process.env.AWS_LAMBDA_FUNCTION_NAME });

/**
 * How long an endpoint's function waits for its request history to be written before it returns anyway,
 * where it must write before it answers (no after-response extension): a slow or throttled table delays
 * an answer by at most this, and never fails it (the write goes on when the instance next runs, if it does).
 */
const HISTORY_FLUSH_WAIT_MS = 500;

/** `recorder.flush()`, or at most `ms` of it. */
const flushWithin = async (flushed: Promise<void>, ms: number): Promise<void> => {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([flushed, waited]);
  clearTimeout(timer);
};

export interface EndpointHandlerOptions {
  /** Where the call's request history is written after the answer has gone (after-response.ts). */
  afterResponse?: AfterResponse | null;
  flushWaitMs?: number;
}

/**
 * An endpoint as a Lambda handler over `services`. Nothing runs in a Lambda once its handler has returned
 * and its extensions are done, so the call's request history (one BatchWriteItem, on the calls that are
 * recorded: an accepted credential) is handed to the after-response extension, which holds the instance
 * until it is written while the answer is already on its way; without the extension it is written before
 * the handler returns, a few milliseconds added to the answer.
 */
export const endpointHandler =
  <P extends AnsweringPorts>(
    endpoint: Endpoint<P>,
    services: () => Promise<Services<P>>,
    { afterResponse = null, flushWaitMs = HISTORY_FLUSH_WAIT_MS }: EndpointHandlerOptions = {},
  ) =>
  async (
    event: APIGatewayProxyEventV2,
    context?: Pick<Context, 'awsRequestId'>,
  ): Promise<APIGatewayProxyStructuredResultV2> => {
    let built: Services<P> | undefined;
    // API Gateway matched the route: its path parameters are the event's. `services` is asked inside, so
    // that a composition root that cannot be built is answered like any fault (500, in the API's shape).
    const serve = lambdaHandler(async (request, matched) => {
      built = await services();
      return responseOf(await endpoint.handle(fromRequest(request, matched.pathParameters ?? {}), built));
    });
    try {
      return await serve(event, context as Context | undefined);
    } finally {
      const flushed = built ? built.ports.apiRequestRecorder.flush() : Promise.resolve();
      // Every invocation is handed over, written or not: the extension waits for each.
      if (afterResponse && context) afterResponse.finish(context.awsRequestId, flushed);
      else await flushWithin(flushed, flushWaitMs);
    }
  };

/**
 * The handler of an endpoint's function, wired with the ports its code calls (`wiring`). Awaited by the
 * function's entry: the after-response extension registers during the init.
 */
export const apiLambda = async <P extends AnsweringPorts>(
  endpoint: Endpoint<P>,
  ...[wiring]: AwsWiringArg<P>
) =>
  endpointHandler(endpoint, () => awsServices<P>(wiring ?? ({} as never)), {
    afterResponse: await registerAfterResponse(),
  });

/** The handler of a workflow task's function (Step Functions invokes it with the state's input). */
export const workerLambda =
  <O, P>(worker: Worker<O, P>, ...[wiring]: AwsWiringArg<P>) =>
  async (event: unknown): Promise<O> =>
    worker.perform(event, await awsServices<P>(wiring ?? ({} as never)));

/** The handler of a job that only needs the ports (its event says nothing it needs). */
export const portsLambda =
  <O, P>(job: (ports: P) => Promise<O>, ...[wiring]: AwsWiringArg<P>) =>
  async (): Promise<O> =>
    job((await awsServices<P>(wiring ?? ({} as never))).ports);

/** The handler of a queue's consumer: a batch from its event source mapping, failed records reported. */
export const queueLambda =
  <P>(
    consumer: (services: Services<P>) => (event: SQSEvent) => Promise<SQSBatchResponse>,
    ...[wiring]: AwsWiringArg<P>
  ) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> =>
    consumer(await awsServices<P>(wiring ?? ({} as never)))(event);
