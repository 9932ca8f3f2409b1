// local -> the local stack's SQS twin: fauxqs (an SQS emulator that speaks the SQS API to the same
// @aws-sdk/client-sqs the deployed functions use), in this process, with the queues a stack needs.
// Its queues live in memory: a restart forgets them, and the durable records in DynamoDB re-drive
// whatever was under way (as the local workflow runner's runs are re-driven).
import { startFauxqs } from 'fauxqs';

export interface LocalQueue {
  url: string;
  arn: string;
}

export interface LocalQueueSettings {
  /** Seconds a received message stays hidden before it comes back (SQS's VisibilityTimeout). */
  visibilityTimeoutSeconds: number;
  /** A queue of its own for messages received this many times and never deleted. */
  deadLetterAfter?: number;
}

export interface LocalSqs {
  endpoint: string;
  region: string;
  /** Creates `name` (and `name-dlq` when it has a dead-letter queue); answers both. */
  createQueue(name: string, settings: LocalQueueSettings): { queue: LocalQueue; deadLetters?: LocalQueue };
  /** How many messages `name` holds: ready, delayed, and received but not yet deleted. */
  depth(name: string): { ready: number; delayed: number; inFlight: number };
  stop(): Promise<void>;
}

const REGION = 'eu-west-1';

export const startLocalSqs = async (port: number): Promise<LocalSqs> => {
  const server = await startFauxqs({ port, host: '127.0.0.1', logger: false, defaultRegion: REGION });
  const create = (name: string, attributes: Record<string, string>): LocalQueue => {
    const { queueUrl, queueArn } = server.createQueue(name, { region: REGION, attributes });
    return { url: queueUrl, arn: queueArn };
  };
  return {
    endpoint: `http://127.0.0.1:${server.port}`,
    region: REGION,
    createQueue: (name, { visibilityTimeoutSeconds, deadLetterAfter }) => {
      const deadLetters = deadLetterAfter === undefined ? undefined : create(`${name}-dlq`, {});
      const queue = create(name, {
        VisibilityTimeout: String(visibilityTimeoutSeconds),
        ...(deadLetters && {
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: deadLetters.arn,
            maxReceiveCount: String(deadLetterAfter),
          }),
        }),
      });
      return deadLetters ? { queue, deadLetters } : { queue };
    },
    depth: (name) => {
      const queue = server.inspectQueue(name);
      if (!queue) throw new Error(`no local queue ${name}`);
      const { ready, delayed, inflight } = queue.messages;
      return { ready: ready.length, delayed: delayed.length, inFlight: inflight.length };
    },
    stop: () => server.stop(),
  };
};
