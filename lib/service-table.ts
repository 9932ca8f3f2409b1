// infra -> a table with the service's one schema (lambdas/adapters/dynamodb/table-schema.ts), as each
// environment's and the identity stack's are: on demand, TTL, point-in-time recovery, a key of our own
// (its use audited in CloudTrail, revocable in its key policy, which the AWS-managed key is not),
// deletion-protected and retained.
import { RemovalPolicy } from 'aws-cdk-lib';
import {
  AttributeType,
  BillingMode,
  type StreamViewType,
  Table,
  TableEncryption,
} from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import {
  GLOBAL_INDEXES,
  PARTITION_KEY,
  SORT_KEY,
  TTL_ATTRIBUTE,
} from '../lambdas/adapters/dynamodb/table-schema';

export interface ServiceTableProps {
  /** What the key's description names, e.g. `contract-service sandbox`. */
  readonly owner: string;
  readonly stream?: StreamViewType;
}

/** The table `Table` and its key `TableKey`, in `scope`. */
export const serviceTable = (scope: Construct, { owner, stream }: ServiceTableProps) => {
  const key = new Key(scope, 'TableKey', {
    description: `${owner}: DynamoDB table encryption`,
    enableKeyRotation: true,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  // `Table`, not `TableV2`: a global table with a customer-managed key cannot be region-agnostic.
  const table = new Table(scope, 'Table', {
    partitionKey: { name: PARTITION_KEY, type: AttributeType.STRING },
    sortKey: { name: SORT_KEY, type: AttributeType.STRING },
    timeToLiveAttribute: TTL_ATTRIBUTE,
    billingMode: BillingMode.PAY_PER_REQUEST,
    ...(stream && { stream }),
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    encryption: TableEncryption.CUSTOMER_MANAGED,
    encryptionKey: key,
    deletionProtection: true,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  for (const index of GLOBAL_INDEXES) {
    table.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
      sortKey: { name: index.sortKey, type: AttributeType.STRING },
    });
  }
  return { table, key };
};
