// infra -> the stateful stack alone (no functions, so no bundling): table, bucket, signing key and the
// form answers' key.
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { CfnResource } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { ANSWER_KEY_BYTES, aesGcmAnswerVault, decodeAnswerKey } from '../../lambdas/adapters/answer-vault';
import {
  GLOBAL_INDEXES,
  PARTITION_KEY,
  SORT_KEY,
  TTL_ATTRIBUTE,
} from '../../lambdas/adapters/dynamodb/table-schema';
import { fromRoot } from '../../lib/paths';
import { ANSWERS_KEY_LENGTH, StatefulStack } from '../../lib/stateful-stack';
import { testApp } from './test-app';

/** A resource of the template as CloudFormation has it. */
interface TemplateResource {
  Properties: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}

describe('StatefulStack', () => {
  let template: Template;
  /** The blob bucket and its policy, found by their logical ids: the access-log bucket and its policy
   *  share most of their settings, so a match against any bucket of the stack would prove nothing. */
  let blobBucket: TemplateResource;
  let blobBucketPolicy: TemplateResource;

  beforeAll(() => {
    // With cdk.json's context, as the app has it (its feature flags decide how access logs are granted).
    const context = JSON.parse(readFileSync(fromRoot('cdk.json'), 'utf8')).context;
    const stack = new StatefulStack(testApp({ context }), 'Stateful', { environment: 'sandbox' });
    template = Template.fromStack(stack);
    const resource = (type: string, construct: unknown): TemplateResource => {
      const id = stack.getLogicalId(construct as CfnResource);
      const found = template.findResources(type)[id];
      if (found === undefined) throw new Error(`no ${type} ${id} in the template`);
      return found as TemplateResource;
    };
    blobBucket = resource('AWS::S3::Bucket', stack.blobBucket.node.defaultChild);
    blobBucketPolicy = resource('AWS::S3::BucketPolicy', stack.blobBucket.policy?.node.defaultChild);
  });

  describe('table', () => {
    it('has the key schema and attribute types of table-schema.ts', () => {
      template.resourceCountIs('AWS::DynamoDB::Table', 1);
      template.hasResourceProperties('AWS::DynamoDB::Table', {
        KeySchema: [
          { AttributeName: PARTITION_KEY, KeyType: 'HASH' },
          { AttributeName: SORT_KEY, KeyType: 'RANGE' },
        ],
        AttributeDefinitions: Match.arrayWith([
          { AttributeName: PARTITION_KEY, AttributeType: 'S' },
          { AttributeName: SORT_KEY, AttributeType: 'S' },
        ]),
        BillingMode: 'PAY_PER_REQUEST',
      });
    });

    it('has both global secondary indexes, projecting every attribute', () => {
      template.hasResourceProperties('AWS::DynamoDB::Table', {
        GlobalSecondaryIndexes: GLOBAL_INDEXES.map((index) => ({
          IndexName: index.name,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
      });
    });

    it('expires items on the TTL attribute', () => {
      template.hasResourceProperties('AWS::DynamoDB::Table', {
        TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      });
    });

    it('has point-in-time recovery, a stream of both images, and deletion protection', () => {
      template.hasResourceProperties('AWS::DynamoDB::Table', {
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' },
        DeletionProtectionEnabled: true,
      });
    });

    it('is encrypted with a customer-managed key that rotates', () => {
      // The other key of the stack signs access tokens (below).
      const keys = template.findResources('AWS::KMS::Key', { Properties: { KeyUsage: Match.absent() } });
      const [keyId, key] = Object.entries(keys)[0] ?? [];
      expect(Object.keys(keys)).toHaveLength(1);
      expect(key?.Properties.EnableKeyRotation).toBe(true);
      template.hasResourceProperties('AWS::DynamoDB::Table', {
        SSESpecification: {
          SSEEnabled: true,
          SSEType: 'KMS',
          KMSMasterKeyId: { 'Fn::GetAtt': [keyId, 'Arn'] },
        },
      });
    });

    it('is retained when the stack is deleted, and so is its key', () => {
      template.hasResource('AWS::DynamoDB::Table', {
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      });
      template.hasResource('AWS::KMS::Key', { DeletionPolicy: 'Retain' });
    });
  });

  describe('blob bucket', () => {
    it('blocks every form of public access and enforces bucket-owner ownership', () => {
      // And the bucket of its access logs (below).
      template.resourceCountIs('AWS::S3::Bucket', 2);
      expect(blobBucket.Properties).toMatchObject({
        PublicAccessBlockConfiguration: {
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      });
    });

    it('is encrypted and versioned, expiring old versions and abandoned multipart uploads', () => {
      expect(blobBucket.Properties).toMatchObject({
        BucketEncryption: {
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        },
        VersioningConfiguration: { Status: 'Enabled' },
        LifecycleConfiguration: {
          Rules: [
            expect.objectContaining({
              AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
              NoncurrentVersionExpiration: { NoncurrentDays: 30 },
              Status: 'Enabled',
            }),
          ],
        },
      });
    });

    it('refuses requests without TLS, or with TLS older than 1.2', () => {
      expect(blobBucketPolicy.Properties).toMatchObject({
        PolicyDocument: {
          Statement: expect.arrayContaining([
            expect.objectContaining({
              Effect: 'Deny',
              Action: 's3:*',
              Condition: { Bool: { 'aws:SecureTransport': 'false' } },
            }),
            expect.objectContaining({
              Effect: 'Deny',
              Action: 's3:*',
              Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } },
            }),
          ]),
        },
      });
    });

    it('lets CloudFront distributions of its own account read published pages, and nothing else', () => {
      const document = blobBucketPolicy.Properties.PolicyDocument as { Statement: { Effect: string }[] };
      const allowed = document.Statement.filter((statement) => statement.Effect === 'Allow');
      expect(allowed).toEqual([
        {
          Sid: 'HostedPagesThroughCloudFront',
          Effect: 'Allow',
          Principal: { Service: 'cloudfront.amazonaws.com' },
          Action: 's3:GetObject',
          Resource: {
            'Fn::Join': ['', [{ 'Fn::GetAtt': [expect.stringMatching(/^Blobs/), 'Arn'] }, '/published/*']],
          },
          Condition: {
            StringEquals: { 'AWS:SourceAccount': { Ref: 'AWS::AccountId' } },
            ArnLike: {
              'AWS:SourceArn': {
                'Fn::Join': [
                  '',
                  [
                    'arn:',
                    { Ref: 'AWS::Partition' },
                    ':cloudfront::',
                    { Ref: 'AWS::AccountId' },
                    ':distribution/*',
                  ],
                ],
              },
            },
          },
        },
      ]);
    });

    it('logs every request to its own access log bucket, kept a year', () => {
      const buckets = template.findResources('AWS::S3::Bucket');
      const [logsId] = Object.keys(buckets).filter((id) => id.startsWith('BlobAccessLogs'));
      expect(blobBucket.Properties).toMatchObject({
        LoggingConfiguration: { DestinationBucketName: { Ref: logsId }, LogFilePrefix: 'blobs/' },
      });
      expect(buckets[logsId ?? '']?.Properties.LifecycleConfiguration.Rules).toEqual([
        expect.objectContaining({ ExpirationInDays: 365, Status: 'Enabled' }),
      ]);
    });

    it('is retained when the stack is deleted', () => {
      expect(blobBucket).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    });

    it('sends its object events to EventBridge (for the withdrawal gate), set on the bucket itself', () => {
      expect(blobBucket.Properties).toMatchObject({
        NotificationConfiguration: { EventBridgeConfiguration: { EventBridgeEnabled: true } },
      });
      template.resourceCountIs('Custom::S3BucketNotifications', 0);
    });
  });

  describe('secrets', () => {
    it('are the answers key alone: the access tokens are signed in KMS', () => {
      template.resourceCountIs('AWS::SecretsManager::Secret', 1);
    });

    it('has the access-token key: one P-256 signing key in KMS, retained', () => {
      const signingKeys = template.findResources('AWS::KMS::Key', {
        Properties: { KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY' },
      });
      expect(Object.values(signingKeys)).toEqual([
        expect.objectContaining({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' }),
      ]);
    });

    it('has the answers key: 43 generated letters and digits, retained (never replaced by an update either)', () => {
      expect(ANSWERS_KEY_LENGTH).toBe(43);
      template.hasResource('AWS::SecretsManager::Secret', {
        Properties: Match.objectLike({
          Description: Match.stringLikeRegexp('sign-up form'),
          GenerateSecretString: {
            PasswordLength: ANSWERS_KEY_LENGTH,
            ExcludePunctuation: true,
            IncludeSpace: false,
          },
        }),
        DeletionPolicy: 'Retain',
        UpdateReplacePolicy: 'Retain',
      });
    });

    it('makes answers keys the vault reads as 32 bytes: any 43 letters and digits are base64 of 32 bytes', () => {
      const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
      const generated = (): string =>
        Array.from({ length: ANSWERS_KEY_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
      const samples = [
        ...Array.from({ length: 200 }, generated),
        ...['A', 'z', '9'].map((digit) => digit.repeat(ANSWERS_KEY_LENGTH)),
      ];
      for (const text of samples)
        expect([text, decodeAnswerKey(text).length]).toEqual([text, ANSWER_KEY_BYTES]);
      // Distinct texts are distinct keys but for the last digit's two dropped bits.
      expect(new Set(samples.map((text) => Buffer.from(decodeAnswerKey(text)).toString('hex'))).size).toBe(
        new Set(samples).size,
      );
    });

    it('seals and opens answers with such a key', async () => {
      const key = decodeAnswerKey(`${'Q'.repeat(ANSWERS_KEY_LENGTH - 1)}w`);
      const vault = aesGcmAnswerVault(async () => key);
      const sealed = await vault.seal('{"buyers":[]}', 'onb_1');
      await expect(vault.open(sealed, 'onb_1')).resolves.toBe('{"buyers":[]}');
    });
  });

  it('makes no Lambda function (no custom resources)', () => {
    template.resourceCountIs('AWS::Lambda::Function', 0);
  });
});
