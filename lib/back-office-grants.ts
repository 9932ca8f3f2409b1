// infra -> exactly what the back office's backend may do (lambdas/back-office/routes.ts and the use cases
// of lambdas/core/back-office/ it runs, the same as `ops`): in the identity table, read staff, organisations,
// the audit log and its own sessions, and write only staff, audit entries and its sessions; in each
// environment's table, read and change records as a worker does (no delete, no scan); in each blob bucket,
// read the renders and the uploaded PDFs and write a lawyer's review and a withdrawal's marker; open the
// sign-up answers with the environment's answers key; end a run's lawyer-review wait or start a review run.
// Events are records of the table, written in the same transaction as the change: no other grant.
import { Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { keys } from '../lambdas/adapters/dynamodb/keys';
import { GLOBAL_INDEXES } from '../lambdas/adapters/dynamodb/table-schema';
import { artifacts } from '../lambdas/core/contracts/artifacts';
import { ENVIRONMENTS, type Environment } from '../lambdas/core/model';
import { PUBLICATIONS_PREFIX, WITHDRAWN_MARKER } from '../lambdas/core/publications';
import { acknowledgeFindings } from './checks';
import type { ServiceFunction } from './service-function';
import { TABLE_ACTIONS, TABLE_KEY_ACTIONS } from './wiring';

/** One environment's resources the back office uses, by name and ARN (read from its stage's SSM parameters). */
export interface BackOfficeEnvironment {
  readonly tableName: string;
  readonly tableKeyArn: string;
  readonly bucketName: string;
  readonly answersKeySecretArn: string;
  readonly contractStateMachineArn: string;
  readonly reviewStateMachineArn: string;
}

const IDENTITY_READS = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
const IDENTITY_WRITES = ['dynamodb:PutItem', 'dynamodb:DeleteItem'];

/** `STAFF#*` of `STAFF#{email}`: the leading keys of one kind of item. */
const kindOf = (key: { pk: string }): string => `${key.pk.slice(0, key.pk.indexOf('#') + 1)}*`;

/** The identity table's items the back office writes: staff, audit entries, its sessions and sign-ins. */
export const BACK_OFFICE_IDENTITY_ITEMS = [
  kindOf(keys.staff('x')),
  kindOf(keys.auditEntry('x')),
  kindOf(keys.backOfficeSession('x')),
  kindOf(keys.backOfficeSignIn('x')),
];

/** The blob folders the back office reads: the pipeline's renders (pages, analysis) and the uploaded PDFs. */
export const BACK_OFFICE_BLOB_READS = [artifacts.pagesPrefix('*', 1).split('/')[0], 'uploads'].map(
  (folder) => `${folder}/*`,
);

/** What it writes: a lawyer's review text and a withdrawn publication's marker. */
export const BACK_OFFICE_BLOB_WRITES = [
  `${artifacts.review('*', 1).split('/')[0]}/*`,
  `${PUBLICATIONS_PREFIX}*/${WITHDRAWN_MARKER}`,
];

const indexesOf = (tableArn: string) => GLOBAL_INDEXES.map((index) => `${tableArn}/index/${index.name}`);

export function grantBackOfficeUseCases(
  backend: ServiceFunction,
  identityTable: ITable,
  environments: Readonly<Record<Environment, BackOfficeEnvironment>>,
): void {
  const stack = Stack.of(backend);
  const throughDynamoDb = {
    StringEquals: { 'kms:ViaService': `dynamodb.${stack.region}.${stack.urlSuffix}` },
  };
  const allow = (sid: string, actions: string[], resources: string[], conditions?: Record<string, unknown>) =>
    backend.addToRolePolicy(
      new PolicyStatement({ sid, actions, resources, ...(conditions && { conditions }) }),
    );

  backend.addEnvironment('IDENTITY_TABLE_NAME', identityTable.tableName);
  allow('ReadStaffOrganisationsAuditAndSessions', IDENTITY_READS, [
    identityTable.tableArn,
    ...indexesOf(identityTable.tableArn),
  ]);
  allow('WriteStaffAuditEntriesAndSessionsOnly', IDENTITY_WRITES, [identityTable.tableArn], {
    'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': BACK_OFFICE_IDENTITY_ITEMS },
  });
  if (identityTable.encryptionKey)
    allow(
      'IdentityTableKeyThroughDynamoDb',
      TABLE_KEY_ACTIONS,
      [identityTable.encryptionKey.keyArn],
      throughDynamoDb,
    );

  for (const environment of ENVIRONMENTS) {
    const named = environments[environment];
    const prefix = environment.toUpperCase();
    const Name = environment.charAt(0).toUpperCase() + environment.slice(1);
    const tableArn = stack.formatArn({
      service: 'dynamodb',
      resource: 'table',
      resourceName: named.tableName,
    });
    const bucketArn = `arn:${stack.partition}:s3:::${named.bucketName}`;
    backend.addEnvironment(`${prefix}_TABLE_NAME`, named.tableName);
    backend.addEnvironment(`${prefix}_BLOB_BUCKET`, named.bucketName);
    backend.addEnvironment(`${prefix}_ANSWERS_KEY_SECRET_ARN`, named.answersKeySecretArn);
    backend.addEnvironment(`${prefix}_REVIEW_STATE_MACHINE_ARN`, named.reviewStateMachineArn);
    allow(`${Name}Records`, [...TABLE_ACTIONS.worker], [tableArn, ...indexesOf(tableArn)]);
    allow(`${Name}TableKeyThroughDynamoDb`, TABLE_KEY_ACTIONS, [named.tableKeyArn], throughDynamoDb);
    allow(
      `${Name}ReadRendersAndPdfs`,
      ['s3:GetObject'],
      BACK_OFFICE_BLOB_READS.map((folder) => `${bucketArn}/${folder}`),
    );
    // A missing render is then a 404, not a 403.
    allow(`${Name}AMissingBlobIsA404`, ['s3:ListBucket'], [bucketArn], {
      StringLike: { 's3:prefix': BACK_OFFICE_BLOB_READS },
    });
    allow(
      `${Name}WriteReviewsAndWithdrawals`,
      ['s3:PutObject', 's3:AbortMultipartUpload'],
      BACK_OFFICE_BLOB_WRITES.map((key) => `${bucketArn}/${key}`),
    );
    // The loser of two racing publishes removes the text it stored under its own key (core/contracts/lawyer-actions.ts).
    allow(
      `${Name}RemoveARefusedPublishsText`,
      ['s3:DeleteObject'],
      [`${bucketArn}/${BACK_OFFICE_BLOB_WRITES[0]}`],
    );
    allow(`${Name}OpenSignUpAnswers`, ['secretsmanager:GetSecretValue'], [named.answersKeySecretArn]);
    allow(`${Name}StartReviewRuns`, ['states:StartExecution'], [named.reviewStateMachineArn]);
    allow(`${Name}EndALawyerReviewWait`, ['states:SendTaskSuccess'], [named.contractStateMachineArn]);
  }
  acknowledgeFindings(
    backend,
    /AwsSolutions-IAM5\[Resource::.+\]/,
    'Folders of the blob buckets, indexes of the tables: S3 and DynamoDB grants name these with a wildcard; every statement is listed in test/infra/back-office.test.ts.',
  );
}
