// adapter -> the DynamoDB document client the stores take, deployed or against DynamoDB Local. Apart from
// local/emulators/dynamodb-local.ts (which starts DynamoDB Local, a Java process): a deployed function must not bundle
// that launcher, whose module reads `__dirname` and so fails to load as ESM.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** DynamoDB Local accepts any credentials; the region only names its database file (one with sharedDb). */
export const localClientConfig = (endpoint: string) => ({
  endpoint,
  region: 'local',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});

/**
 * The document client every store takes. With `endpoint` (DynamoDB Local) it uses dummy credentials;
 * without it the SDK's default region and credential chain apply (Lambda).
 */
export const createDocumentClient = (endpoint?: string): DynamoDBDocumentClient => {
  const client = new DynamoDBClient(endpoint ? localClientConfig(endpoint) : {});
  return DynamoDBDocumentClient.from(client, {
    marshallOptions: { removeUndefinedValues: true },
  });
};
