// bin/ops -> the operator tool against a deployed stage (`--stage Sandbox|Production`): its resources read
// from the stage's CloudFormation outputs (DescribeStacks with the caller's credentials, or the file
// `cdk deploy --outputs-file` wrote), and its services composed as its functions compose theirs
// (lambdas/hosts/aws/services.ts), so each command runs the same core functions over the same adapters.
import { readFile } from 'node:fs/promises';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { composeDirectory } from '../../lambdas/adapters/compose';
import { createDocumentClient } from '../../lambdas/adapters/dynamodb';
import type { Environment } from '../../lambdas/core/model';
import type { Directory } from '../../lambdas/core/organisations';
import {
  AwsConfig,
  awsBlobs,
  awsDeliveryQueue,
  awsWorkflows,
  composeAwsServices,
} from '../../lambdas/hosts/aws/services';
import { serviceStackName, stageId } from '../../lib/environments';
import type { EnvironmentServices } from './scope';

/** The stages by the name `--stage` takes (the CDK app's stage ids). */
export const STAGES: Readonly<Record<string, Environment>> = {
  [stageId('sandbox')]: 'sandbox',
  [stageId('production')]: 'production',
};

type StackPart = 'stateful' | 'stateless';

/** Each output the tool reads, the stack that has it, and the setting of a deployed host it becomes. */
export const OPERATOR_OUTPUTS = {
  TableName: { stack: 'stateful', setting: 'TABLE_NAME' },
  BlobBucketName: { stack: 'stateful', setting: 'BLOB_BUCKET' },
  PagesBaseUrl: { stack: 'stateless', setting: 'PAGES_BASE_URL' },
  SandboxBaseUrl: { stack: 'stateless', setting: 'SANDBOX_BASE_URL' },
  ProductionBaseUrl: { stack: 'stateless', setting: 'PRODUCTION_BASE_URL' },
  ContractStateMachineArn: { stack: 'stateless', setting: 'CONTRACT_STATE_MACHINE_ARN' },
  ReviewStateMachineArn: { stack: 'stateless', setting: 'REVIEW_STATE_MACHINE_ARN' },
  AcceptanceStateMachineArn: { stack: 'stateless', setting: 'ACCEPTANCE_STATE_MACHINE_ARN' },
  DeliveryStateMachineArn: { stack: 'stateless', setting: 'DELIVERY_STATE_MACHINE_ARN' },
  DeliveryQueueUrl: { stack: 'stateless', setting: 'DELIVERY_QUEUE_URL' },
} as const satisfies Record<string, { stack: StackPart; setting: keyof AwsConfig }>;

/**
 * The output naming the identity table (organisations, integrations). It is deployed beside the stages,
 * not by them: the stage's shared stack outputs it once deployed, else `--identity-table` gives it.
 */
export const IDENTITY_TABLE_OUTPUT = 'IdentityTableName';

export interface StageOptions {
  stage: string;
  /** The file `cdk deploy --outputs-file` wrote; without it the outputs are read with DescribeStacks. */
  outputsFile?: string;
  identityTable?: string;
}

/** What the tool reaches of a deployed stage: its one environment's services, and the identity table's directory. */
export interface DeployedStage {
  environment: Environment;
  services: EnvironmentServices;
  directory: Directory;
}

/** The stage cannot be reached as given: the message says what to do. */
export class StageUnreachable extends Error {}

const FIX_CREDENTIALS =
  "set AWS_PROFILE (after aws sso login) or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY for the stage's account";

/** The caller's region and credentials (the SDK's default chain), or a message saying how to give them. */
const callerAccess = async (client: CloudFormationClient): Promise<string> => {
  let region: string;
  try {
    region = await client.config.region();
  } catch {
    throw new StageUnreachable("no AWS region: set AWS_REGION to the stage's region");
  }
  try {
    await client.config.credentials();
  } catch {
    throw new StageUnreachable(`no AWS credentials found: ${FIX_CREDENTIALS}`);
  }
  return region;
};

type Outputs = Record<string, string>;

/** The outputs of the stage's two stacks, and of its shared stack when it is deployed. */
type StageOutputs = Record<StackPart, Outputs> & { readonly shared?: Outputs };

/** The outputs of the stage's stacks as DescribeStacks answers them. */
const describedOutputs = async (
  client: CloudFormationClient,
  environment: Environment,
  region: string,
): Promise<StageOutputs> => {
  const read = async (part: StackPart | 'shared'): Promise<Outputs> => {
    const name = serviceStackName(environment, part);
    try {
      const { Stacks } = await client.send(new DescribeStacksCommand({ StackName: name }));
      return Object.fromEntries(
        (Stacks?.[0]?.Outputs ?? []).map((output) => [output.OutputKey ?? '', output.OutputValue ?? '']),
      );
    } catch (error) {
      const { name: kind, message } = error as Error;
      if (kind === 'ValidationError' && /does not exist/.test(message))
        throw new StageUnreachable(
          `stack ${name} not found in ${region}: deploy the stage (README, Deploying), or set AWS_REGION and AWS_PROFILE to where it is deployed`,
        );
      throw error;
    }
  };
  const shared = await read('shared').catch((error: unknown) => {
    if (error instanceof StageUnreachable) return undefined;
    throw error;
  });
  return { stateful: await read('stateful'), stateless: await read('stateless'), ...(shared && { shared }) };
};

/** The outputs of the stage's stacks in a file `cdk deploy --outputs-file FILE` wrote. */
const fileOutputs = async (file: string, environment: Environment): Promise<StageOutputs> => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    const why =
      (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'there is no such file' : (error as Error).message;
    throw new StageUnreachable(`--outputs ${file}: ${why}`);
  }
  const read = (part: StackPart): Outputs => {
    const name = serviceStackName(environment, part);
    const outputs = (parsed as Record<string, unknown> | null)?.[name];
    if (typeof outputs !== 'object' || outputs === null)
      throw new StageUnreachable(
        `--outputs ${file} has no outputs of ${name}: write it with npx cdk deploy --all --outputs-file ${file}`,
      );
    return outputs as Outputs;
  };
  const shared = (parsed as Record<string, Outputs | undefined>)[serviceStackName(environment, 'shared')];
  return { stateful: read('stateful'), stateless: read('stateless'), ...(shared && { shared }) };
};

/** The settings of a deployed host of the stage's environment, from its outputs. */
const configOf = (environment: Environment, outputs: Record<StackPart, Outputs>, region: string) => {
  const settings: Record<string, string> = { SERVICE_ENVIRONMENT: environment, AWS_REGION: region };
  for (const [output, { stack, setting }] of Object.entries(OPERATOR_OUTPUTS)) {
    const value = outputs[stack][output];
    if (!value)
      throw new StageUnreachable(
        `stack ${serviceStackName(environment, stack)} has no output ${output}: deploy it again with this version of the app`,
      );
    settings[setting] = value;
  }
  const config = AwsConfig.safeParse(settings);
  if (!config.success)
    throw new StageUnreachable(
      `the stage's outputs are not what this tool reads (${config.error.issues.map((i) => i.path.join('.')).join(', ')}): deploy it again with this version of the app`,
    );
  return config.data;
};

/** Reaches a deployed stage: its outputs read, its services composed with the caller's credentials. */
export const deployedStage = async (options: StageOptions): Promise<DeployedStage> => {
  const environment = STAGES[options.stage];
  if (environment === undefined)
    throw new StageUnreachable(
      `unknown stage ${options.stage}: give --stage ${Object.keys(STAGES).join(' or --stage ')}`,
    );
  const cloudFormation = new CloudFormationClient({});
  const region = await callerAccess(cloudFormation);
  const outputs =
    options.outputsFile === undefined
      ? await describedOutputs(cloudFormation, environment, region)
      : await fileOutputs(options.outputsFile, environment);
  const identityTable = options.identityTable ?? outputs.shared?.[IDENTITY_TABLE_OUTPUT];
  if (!identityTable)
    throw new StageUnreachable(
      `the stage does not name its identity table (output ${IDENTITY_TABLE_OUTPUT} of ${serviceStackName(environment, 'shared')}): deploy with npm run deploy, or give --identity-table NAME, the table of organisations and integrations`,
    );
  return {
    environment,
    services: composeAwsServices<EnvironmentServices['ports']>(configOf(environment, outputs, region), {
      blobs: awsBlobs,
      workflows: awsWorkflows,
      deliveryQueue: awsDeliveryQueue,
    }),
    directory: composeDirectory(createDocumentClient(), identityTable),
  };
};

/** AWS refusing the caller, in one line with the fix; undefined for any other error. */
export const refusalByAws = (error: unknown): string | undefined => {
  const { name, message } = error as Error;
  if (name === 'CredentialsProviderError') return `no AWS credentials found: ${FIX_CREDENTIALS}`;
  if (/AccessDenied|UnauthorizedOperation|NotAuthorized/.test(name ?? ''))
    return `AWS refused: ${message.split('\n')[0]}: attach the stage's operator policy (output OperatorPolicyArn) to your role`;
  if (/ExpiredToken|InvalidClientTokenId|UnrecognizedClient|InvalidSignature/.test(name ?? ''))
    return `AWS refused your credentials (${name}): ${FIX_CREDENTIALS}`;
  return undefined;
};
