// infra -> what an environment keeps: the table, the blob bucket, the access-token key (KMS) and the
// sign-up form answers' key. Everything here is retained when the stack goes, and the stateless stack is
// built on top of it.
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { StreamViewType, type Table } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  type CfnBucket,
  ObjectOwnership,
} from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { ANSWER_KEY_BYTES } from '../lambdas/adapters/answer-vault';
import { acknowledge } from './checks';
import type { Environment } from './environments';
import { PUBLISHED_PREFIX } from './hosted-pages';
import { EnvironmentParameters } from './identity-context';
import { serviceTable } from './service-table';

/**
 * Length of the generated answers key. Secrets Manager makes random text, not bytes: 43 letters and digits
 * are 43 base64 digits, which the vault's `decodeAnswerKey` reads as exactly 32 bytes (43 × 6 = 258 bits,
 * the last 2 dropped), about 254 random bits as letters and digits are 62 of base64's 64 digits.
 */
export const ANSWERS_KEY_LENGTH = Math.ceil((ANSWER_KEY_BYTES * 8) / 6);

const streamArnOf = (table: Table): string => {
  if (!table.tableStreamArn) throw new Error("the environment's table has no stream");
  return table.tableStreamArn;
};

export interface StatefulStackProps extends StackProps {
  readonly environment: Environment;
}

export class StatefulStack extends Stack {
  readonly table: Table;
  readonly blobBucket: Bucket;
  /**
   * ES256 key pair of the environment's access tokens: its private half never leaves KMS. Only the token
   * function may sign with it, the hosts that check tokens read its public half (lib/wiring.ts).
   */
  readonly tokenKey: Key;
  /** AES-256-GCM key of the sign-up form's answers (`ANSWERS_KEY_SECRET_ARN`; see `ANSWERS_KEY_LENGTH`). */
  readonly answersKeySecret: Secret;

  constructor(scope: Construct, id: string, props: StatefulStackProps) {
    super(scope, id, props);
    const { environment } = props;

    // Personal data of buyers: a key of our own (lib/service-table.ts). The event outbox is read from
    // the stream; both images let a consumer see what changed.
    const { table, key: tableKey } = serviceTable(this, {
      owner: `contract-service ${environment}`,
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
    });
    this.table = table;

    // S3's access logs of the blob bucket: who read or wrote which contract, kept a year.
    const accessLogs = new Bucket(this, 'BlobAccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      lifecycleRules: [{ expiration: Duration.days(365) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(
      accessLogs,
      'AwsSolutions-S1',
      'The access log bucket itself: its access logs would be logs of logs.',
    );

    this.blobBucket = new Bucket(this, 'Blobs', {
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'blobs/',
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      // SSE-S3 rather than KMS: CloudFront will serve hosted pages from this bucket, and a KMS key here
      // would need a key policy naming the distribution of the stateless stack (a cross-stack cycle).
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      // Versioned so an overwritten or deleted contract PDF can be recovered for 30 days.
      versioned: true,
      lifecycleRules: [
        {
          noncurrentVersionExpiration: Duration.days(30),
          // Uploads stream to S3 in parts; an interrupted one must not leave parts billed forever.
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
      ],
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // S3 tells EventBridge of every object change; the stateless stack's withdrawal gate listens there
    // for the withdrawal markers (lib/hosted-pages.ts) without this stack naming it. Set on the bucket
    // itself: CDK's `eventBridgeEnabled` would add a custom resource (and its function) instead.
    (this.blobBucket.node.defaultChild as CfnBucket).notificationConfiguration = {
      eventBridgeConfiguration: { eventBridgeEnabled: true },
    };

    // The hosted pages' distribution (lib/hosted-pages.ts) reads published pages through origin access
    // control. It is in the stateless stack, so it cannot be named here without each stack depending on
    // the other: any distribution of this account may read `published/*` (public pages by design), and
    // nothing else of the bucket.
    this.blobBucket.addToResourcePolicy(
      new PolicyStatement({
        sid: 'HostedPagesThroughCloudFront',
        principals: [new ServicePrincipal('cloudfront.amazonaws.com')],
        actions: ['s3:GetObject'],
        resources: [this.blobBucket.arnForObjects(`${PUBLISHED_PREFIX}/*`)],
        conditions: {
          StringEquals: { 'AWS:SourceAccount': this.account },
          ArnLike: { 'AWS:SourceArn': `arn:${this.partition}:cloudfront::${this.account}:distribution/*` },
        },
      }),
    );

    // KMS rotates no asymmetric key: a new key replaces it (README Deploying, "Keys").
    this.tokenKey = new Key(this, 'AccessTokenKey', {
      description: `contract-service ${environment}: ES256 key signing API access tokens`,
      keySpec: KeySpec.ECC_NIST_P256,
      keyUsage: KeyUsage.SIGN_VERIFY,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // Every sealed draft and submission depends on this value: it is generated once and never rotated,
    // and changing the generation settings below would replace the secret (and so lose every answer).
    this.answersKeySecret = new Secret(this, 'AnswersKey', {
      description: `contract-service ${environment}: AES-256-GCM key sealing the sign-up form's answers (base64)`,
      generateSecretString: {
        passwordLength: ANSWERS_KEY_LENGTH,
        excludePunctuation: true,
        includeSpace: false,
      },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(
      this.answersKeySecret,
      'AwsSolutions-SMG4',
      'Every sealed answer depends on this one value (see above): rotating it would lose them all.',
    );
    // What the stage's stateless stack, the identity stack and the MCP servers read at their deployment.
    new EnvironmentParameters(this, 'Published', environment, {
      tableName: this.table.tableName,
      tableKeyArn: tableKey.keyArn,
      tableStreamArn: streamArnOf(this.table),
      bucketName: this.blobBucket.bucketName,
      tokenKeyArn: this.tokenKey.keyArn,
      answersKeySecretArn: this.answersKeySecret.secretArn,
    });
    // What the operator tool (bin/ops/deployed-stage.ts) and the identity stack's context (README,
    // Deploying) read of this environment.
    new CfnOutput(this, 'TableName', { description: 'The environment’s table', value: this.table.tableName });
    new CfnOutput(this, 'TableKeyArn', { description: 'The table’s key', value: tableKey.keyArn });
    new CfnOutput(this, 'BlobBucketName', {
      description: 'The blob bucket',
      value: this.blobBucket.bucketName,
    });
  }
}
