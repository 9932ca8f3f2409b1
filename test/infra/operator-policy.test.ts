// infra -> the operators' managed policy of each stage (lib/operator-policy.ts) and the outputs the operator
// tool reads (bin/ops/deployed-stage.ts): exactly its actions, each on the stage's own resources, none on `*`.
import { OPERATOR_OUTPUTS } from '../../bin/ops/deployed-stage';
import type { Environment } from '../../lib/environments';
import { IDENTITY_PARAMETERS } from '../../lib/identity-context';
import { OPERATOR_TABLE_ACTIONS } from '../../lib/operator-policy';
import type { IdentityStacks } from '../../lib/service-app';
import type { ServiceStage } from '../../lib/service-stage';
import type { SharedStack } from '../../lib/shared-stack';
import {
  actionsOf,
  flattenedTemplate,
  logicalIdOf,
  type PolicyStatement,
  SYNTH_DEADLINE_MS,
  type SynthesisedApp,
  synthServiceApp,
  templateOf,
} from './synth';

let synthesised: SynthesisedApp;
let plain: Readonly<Record<Environment, ServiceStage>>;
/** Each stage's shared stack, beside the identity stack, as `bin/app.ts` adds them. */
let shared: Readonly<Record<Environment, SharedStack>>;

/** Both stages without bundling, the identity stack and the stages' shared stacks beside them. */
beforeAll(async () => {
  synthesised = await synthServiceApp({ bundle: 'none', identity: true });
  plain = synthesised.stages;
  shared = (synthesised.identity as IdentityStacks).shared;
}, SYNTH_DEADLINE_MS);

afterAll(() => synthesised?.cleanUp());

/** The template parameter through which the shared stack reads the identity stack's SSM parameter `name`. */
const identityParameter = (stack: SharedStack, name: string): string => {
  const parameters = (templateOf(stack).toJSON().Parameters ?? {}) as Record<
    string,
    { Type: string; Default?: string }
  >;
  const found = Object.entries(parameters).find(([, parameter]) => parameter.Default === name);
  if (!found) throw new Error(`no parameter reads ${name}`);
  return found[0];
};

const statementsOf = (stage: ServiceStage): Array<PolicyStatement & { Sid: string }> => {
  const policies = flattenedTemplate(stage.stateless).findResources('AWS::IAM::ManagedPolicy');
  const id = logicalIdOf(stage.stateless, stage.stateless.operatorPolicy.policy);
  expect(Object.keys(policies)).toContain(id);
  return policies[id]?.Properties.PolicyDocument.Statement;
};

/** Each statement's actions, by its Sid. */
const actionsBySid = (stage: ServiceStage) =>
  Object.fromEntries(statementsOf(stage).map((s) => [s.Sid, actionsOf(s).sort()]));

describe.each(['sandbox', 'production'] as const)('%s: the operators’ policy', (environment) => {
  test('grants exactly what the operator tool does, and nothing else', () => {
    expect(actionsBySid(plain[environment])).toEqual({
      ReadTheStageOutputs: ['cloudformation:DescribeStacks'],
      TheEnvironmentsRecords: [...OPERATOR_TABLE_ACTIONS].sort(),
      ReadAnAnalysisDraft: ['s3:GetObject'],
      AMissingDraftIsA404: ['s3:ListBucket'],
      WriteAReviewOrAWithdrawal: ['s3:AbortMultipartUpload', 's3:PutObject'],
      DropTheTextOfAPublishThatLostARace: ['s3:DeleteObject'],
      StartReviewAcceptanceAndDeliveryRuns: ['states:StartExecution'],
      EndALawyerReviewWait: ['states:SendTaskSuccess'],
      HandOnWebhookDeliveries: ['sqs:SendMessage'],
      TheTablesKeyThroughDynamoDB: ['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey'],
    });
    expect(OPERATOR_TABLE_ACTIONS).not.toContain('dynamodb:Scan');
    expect(OPERATOR_TABLE_ACTIONS).not.toContain('dynamodb:BatchWriteItem');
  });

  test('every statement allows, on named resources of this stage (no `*`)', () => {
    const statements = statementsOf(plain[environment]);
    for (const statement of statements) {
      expect(statement.Effect).toBe('Allow');
      expect(JSON.stringify(statement.Resource)).not.toMatch(/"\*"/);
    }
    const rendered = (sid: string) => JSON.stringify(statements.find((s) => s.Sid === sid)?.Resource);
    expect(rendered('ReadTheStageOutputs')).toContain(`stack/contract-service-${environment}-stateful/*`);
    expect(rendered('ReadTheStageOutputs')).toContain(`stack/contract-service-${environment}-stateless/*`);
    expect(rendered('ReadTheStageOutputs')).toContain(`stack/contract-service-${environment}-shared/*`);
    expect(rendered('ReadAnAnalysisDraft')).toContain('/renders/*');
    expect(rendered('WriteAReviewOrAWithdrawal')).toMatch(/\/reviews\/\*.*\/published\/\*/);
    expect(rendered('WriteAReviewOrAWithdrawal')).not.toContain('uploads');
    // Only a review's text is ever deleted: never a publication or a rendering.
    expect(rendered('DropTheTextOfAPublishThatLostARace')).toContain('/reviews/*');
    expect(rendered('DropTheTextOfAPublishThatLostARace')).not.toMatch(/published|renders|uploads/);
    // The contract runs are never started by the tool: only their lawyer-review wait is ended.
    const machines = plain[environment].stateless.stateMachines;
    const idOf = (kind: keyof typeof machines) => logicalIdOf(plain[environment].stateless, machines[kind]);
    expect(rendered('StartReviewAcceptanceAndDeliveryRuns')).not.toContain(idOf('contract'));
    for (const kind of ['review', 'acceptance', 'delivery'] as const)
      expect(rendered('StartReviewAcceptanceAndDeliveryRuns')).toContain(idOf(kind));
    expect(rendered('EndALawyerReviewWait')).toContain(idOf('contract'));
  });

  test('in the shared stack, a second policy reads organisations and integrations and writes only staff and their audit entries (its key through DynamoDB)', () => {
    const stack = shared[environment];
    const policies = templateOf(stack).findResources('AWS::IAM::ManagedPolicy');
    const id = logicalIdOf(stack, stack.operatorIdentityPolicy.policy);
    expect(Object.keys(policies)).toEqual([id]);
    const statements = policies[id]?.Properties.PolicyDocument.Statement as Array<
      PolicyStatement & { Sid: string }
    >;
    expect(statements.map((s) => s.Sid)).toEqual([
      'ReadOrganisationsAndIntegrations',
      'TheIdentityTablesKeyThroughDynamoDB',
      'ManageStaffAndTheirAuditLog',
      'WriteTheIdentityTableThroughDynamoDB',
    ]);
    const [identity, key, staff, write] = statements;
    // `ops staff-add` / `staff-remove`: only staff items and audit entries, never a person or an organisation.
    expect(staff && actionsOf(staff).sort()).toEqual([
      'dynamodb:ConditionCheckItem',
      'dynamodb:DeleteItem',
      'dynamodb:PutItem',
    ]);
    expect((staff as { Condition?: unknown } | undefined)?.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['STAFF#*', 'AUDIT#*'] },
    });
    expect(write && actionsOf(write).sort()).toEqual(['kms:Encrypt', 'kms:GenerateDataKey']);
    expect(identity && actionsOf(identity).sort()).toEqual(['dynamodb:GetItem', 'dynamodb:Query']);
    expect(JSON.stringify(identity?.Resource)).toContain(
      `{"Ref":"${identityParameter(stack, IDENTITY_PARAMETERS.tableName)}"}`,
    );
    expect(key && actionsOf(key)).toEqual(['kms:Decrypt']);
    expect(key?.Resource).toEqual({ Ref: identityParameter(stack, IDENTITY_PARAMETERS.tableKeyArn) });
    expect(statementsOf(plain[environment]).map((s) => s.Sid)).not.toContain(
      'ReadOrganisationsAndIntegrations',
    );
  });
});

describe.each(['sandbox', 'production'] as const)('%s: what the operator tool reads', (environment) => {
  test('each output it reads is in the stack it looks in, and the policy is output', () => {
    const stage = plain[environment];
    const outputs = {
      stateful: Object.keys(templateOf(stage.stateful).toJSON().Outputs ?? {}),
      stateless: Object.keys(flattenedTemplate(stage.stateless).toJSON().Outputs ?? {}),
    };
    for (const [name, { stack }] of Object.entries(OPERATOR_OUTPUTS))
      expect({ name, in: outputs[stack].includes(name) }).toEqual({ name, in: true });
    expect(outputs.stateless).toContain('OperatorPolicyArn');
    const named = templateOf(shared[environment]).toJSON().Outputs;
    expect(named.IdentityTableName.Value).toEqual({
      Ref: identityParameter(shared[environment], IDENTITY_PARAMETERS.tableName),
    });
    expect(Object.keys(named)).toContain('OperatorIdentityPolicyArn');
  });
});
