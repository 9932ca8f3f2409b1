// infra -> the operators' managed policy of one stage: exactly what the operator tool does against it
// (`ops --stage …`, bin/ops/deployed-stage.ts) and nothing more. It reads the stage's outputs; reads and
// writes the environment's table as the API does (no scan, no batch write); reads a version's analysis
// draft, writes a lawyer's review and a withdrawal marker; starts the runs its commands start (review,
// acceptance, a delivery's wait), ends a lawyer-review wait, hands webhook deliveries on. Reading
// organisations and integrations in the identity table is a second policy (`OperatorIdentityPolicy`), in the
// stage's shared stack, deployed once the identity stack is.
import { ArnFormat, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { ManagedPolicy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IStateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { GLOBAL_INDEXES } from '../lambdas/adapters/dynamodb/table-schema';
import type { RunKind } from '../lambdas/core/ports';
import { acknowledgeFindings } from './checks';
import { type Environment, serviceStackName } from './environments';
import { TABLE_ACTIONS, TABLE_KEY_ACTIONS } from './wiring';

/** The table actions of the operator tool: an endpoint's, less the request history's batch writes. */
export const OPERATOR_TABLE_ACTIONS = TABLE_ACTIONS.endpoint.filter((a) => a !== 'dynamodb:BatchWriteItem');

export interface OperatorPolicyProps {
  readonly environment: Environment;
  readonly table: ITable;
  readonly blobBucket: IBucket;
  readonly stateMachines: Readonly<Record<RunKind, IStateMachine>>;
  readonly deliveryQueue: IQueue;
}

export class OperatorPolicy extends Construct {
  readonly policy: ManagedPolicy;

  constructor(scope: Construct, id: string, props: OperatorPolicyProps) {
    super(scope, id);
    const { environment, table, blobBucket, stateMachines, deliveryQueue } = props;
    const stack = Stack.of(this);
    const statements = [
      new PolicyStatement({
        sid: 'ReadTheStageOutputs',
        actions: ['cloudformation:DescribeStacks'],
        resources: (['stateful', 'stateless', 'shared'] as const).map((part) =>
          stack.formatArn({
            service: 'cloudformation',
            resource: 'stack',
            resourceName: `${serviceStackName(environment, part)}/*`,
            arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
          }),
        ),
      }),
      new PolicyStatement({
        sid: 'TheEnvironmentsRecords',
        actions: OPERATOR_TABLE_ACTIONS,
        resources: [
          table.tableArn,
          ...GLOBAL_INDEXES.map((index) => `${table.tableArn}/index/${index.name}`),
        ],
      }),
      new PolicyStatement({
        sid: 'ReadAnAnalysisDraft',
        actions: ['s3:GetObject'],
        resources: [blobBucket.arnForObjects('renders/*')],
      }),
      new PolicyStatement({
        sid: 'AMissingDraftIsA404',
        actions: ['s3:ListBucket'],
        resources: [blobBucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': ['renders/*'] } },
      }),
      new PolicyStatement({
        sid: 'WriteAReviewOrAWithdrawal',
        actions: ['s3:PutObject', 's3:AbortMultipartUpload'],
        resources: [blobBucket.arnForObjects('reviews/*'), blobBucket.arnForObjects('published/*')],
      }),
      // A publish stores its text under a key of its own before recording it; the loser of two racing
      // publishes deletes its text (core/contracts/lawyer-actions.ts).
      new PolicyStatement({
        sid: 'DropTheTextOfAPublishThatLostARace',
        actions: ['s3:DeleteObject'],
        resources: [blobBucket.arnForObjects('reviews/*')],
      }),
      new PolicyStatement({
        sid: 'StartReviewAcceptanceAndDeliveryRuns',
        actions: ['states:StartExecution'],
        resources: [stateMachines.review, stateMachines.acceptance, stateMachines.delivery].map(
          (machine) => machine.stateMachineArn,
        ),
      }),
      new PolicyStatement({
        sid: 'EndALawyerReviewWait',
        actions: ['states:SendTaskSuccess'],
        resources: [stateMachines.contract.stateMachineArn],
      }),
      new PolicyStatement({
        sid: 'HandOnWebhookDeliveries',
        actions: ['sqs:SendMessage'],
        resources: [deliveryQueue.queueArn],
      }),
    ];
    if (table.encryptionKey)
      statements.push(
        new PolicyStatement({
          sid: 'TheTablesKeyThroughDynamoDB',
          actions: TABLE_KEY_ACTIONS,
          resources: [table.encryptionKey.keyArn],
          conditions: { StringEquals: { 'kms:ViaService': `dynamodb.${stack.region}.${stack.urlSuffix}` } },
        }),
      );
    this.policy = new ManagedPolicy(this, 'Policy', {
      description: `contract-service ${environment}: what the operator tool (ops --stage) does; attach to the operators' role`,
      statements,
    });
    acknowledgeFindings(
      this.policy,
      /AwsSolutions-IAM5\[Resource::.+\]/,
      'Folders of the blob bucket, indexes of the tables and the stacks by name: S3, DynamoDB and CloudFormation grants name these with a wildcard.',
    );
  }
}

/** The identity table (organisations, integrations) and its key, as the identity stack names them. */
export interface OperatorIdentityPolicyProps {
  readonly environment: Environment;
  readonly identityTable: { readonly name: string; readonly keyArn: string };
}

/**
 * The operators' reads of organisations and integrations, and their management of staff (staff items and
 * their audit entries only); the key only through DynamoDB.
 */
export class OperatorIdentityPolicy extends Construct {
  readonly policy: ManagedPolicy;

  constructor(scope: Construct, id: string, props: OperatorIdentityPolicyProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const identityTable = stack.formatArn({
      service: 'dynamodb',
      resource: 'table',
      resourceName: props.identityTable.name,
    });
    this.policy = new ManagedPolicy(this, 'Policy', {
      description: `contract-service ${props.environment}: the operator tool's reads of organisations and integrations; attach to the operators' role`,
      statements: [
        new PolicyStatement({
          sid: 'ReadOrganisationsAndIntegrations',
          actions: ['dynamodb:GetItem', 'dynamodb:Query'],
          resources: [identityTable, `${identityTable}/index/*`],
        }),
        new PolicyStatement({
          sid: 'TheIdentityTablesKeyThroughDynamoDB',
          actions: ['kms:Decrypt'],
          resources: [props.identityTable.keyArn],
          conditions: { StringEquals: { 'kms:ViaService': `dynamodb.${stack.region}.${stack.urlSuffix}` } },
        }),
        // `ops staff-add` / `staff-remove` (decisions.md §11): a staff item and its audit entries, written
        // in one transaction; no other item of the identity table can be written.
        new PolicyStatement({
          sid: 'ManageStaffAndTheirAuditLog',
          actions: ['dynamodb:PutItem', 'dynamodb:DeleteItem', 'dynamodb:ConditionCheckItem'],
          resources: [identityTable],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['STAFF#*', 'AUDIT#*'] } },
        }),
        new PolicyStatement({
          sid: 'WriteTheIdentityTableThroughDynamoDB',
          actions: ['kms:Encrypt', 'kms:GenerateDataKey'],
          resources: [props.identityTable.keyArn],
          conditions: { StringEquals: { 'kms:ViaService': `dynamodb.${stack.region}.${stack.urlSuffix}` } },
        }),
      ],
    });
    acknowledgeFindings(
      this.policy,
      /AwsSolutions-IAM5\[Resource::.+\]/,
      'The identity table’s indexes: DynamoDB grants name them with a wildcard.',
    );
  }
}
