// adapters -> the SQS client of the work queues, deployed and against the local twin.
import { SQSClient } from '@aws-sdk/client-sqs';

export interface SqsClientOptions {
  region: string;
  /** The local twin's address (`startLocalSqs(...).endpoint`); omitted for AWS. */
  endpoint?: string;
}

export const createSqsClient = ({ region, endpoint }: SqsClientOptions): SQSClient =>
  new SQSClient({
    region,
    // The local twin checks no signature, but the SDK signs every request.
    ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
