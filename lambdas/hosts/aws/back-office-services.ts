// host -> the composition root of the deployed back office's backend (`/api/*` and `/auth/*` of its own
// address; its built files are served by CloudFront from S3): its sessions (scope `back_office`), the staff
// and organisations in the identity table, and each environment's ports the back office's use cases call
// (lambdas/back-office/routes.ts BackOfficeEnvironmentPorts). Staff sign in at the staff user pool, never
// at the identity provider the integrators use (decisions.md §11 "Who"); their roles are the staff records'.
// Built once per instance.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SFNClient } from '@aws-sdk/client-sfn';
import * as z from 'zod/mini';
import { decodeAnswerKey } from '../../adapters/answer-vault';
import { createS3Client } from '../../adapters/blobs/s3-client';
import {
  answerVaultOver,
  blobStoreOver,
  composeCommonPorts,
  composeDirectory,
  workflowsOver,
} from '../../adapters/compose';
import { createDocumentClient } from '../../adapters/dynamodb';
import { DynamoDbPortalSessionStore } from '../../adapters/dynamodb/portal-session-store';
import { systemClock } from '../../adapters/system-clock';
import { translateFault, translatingFaults } from '../../adapters/unavailable';
import { stepFunctionsWorkflows } from '../../adapters/workflows/step-functions-workflows';
import { type BackOfficeApp, backOfficeApp } from '../../back-office/app';
import type { BackOfficeEnvironmentPorts } from '../../back-office/routes';
import { ENVIRONMENTS, type Environment } from '../../core/model';
import { backOfficeRedirectUri } from '../../identity-provider/back-office-client';
import { builtOnFirstUse } from './built-on-first-use';
import { setting, settingOf } from './environment-services';
import { lambdaHandler } from './lambda-adapter';
import { StaffPoolSignIn } from './staff-pool-sign-in';

/** One environment's resources the back office uses, under `SANDBOX_…` or `PRODUCTION_…`. */
const environmentSettings = (prefix: string) => ({
  [`${prefix}_TABLE_NAME`]: setting,
  [`${prefix}_BLOB_BUCKET`]: setting,
  [`${prefix}_ANSWERS_KEY_SECRET_ARN`]: setting,
  [`${prefix}_REVIEW_STATE_MACHINE_ARN`]: setting,
});

/** The backend's settings (lib/back-office.ts sets each; Lambda sets `AWS_REGION`). */
export const BackOfficeConfig = z.object({
  /** The back office's own https address: the only origin a change may come from. */
  BACK_OFFICE_URL: z.url(),
  IDENTITY_TABLE_NAME: setting,
  /** The staff user pool's issuer (`https://cognito-idp.{region}.amazonaws.com/{pool id}`). */
  STAFF_POOL_ISSUER: z.url(),
  /** The pool's sign-in pages (its domain), where signing out happens. */
  STAFF_POOL_DOMAIN_URL: z.url(),
  STAFF_CLIENT_ID: setting,
  STAFF_CLIENT_SECRET_ARN: setting,
  AWS_REGION: setting,
  ...environmentSettings('SANDBOX'),
  ...environmentSettings('PRODUCTION'),
});

const secretText = async (secrets: SecretsManagerClient, arn: string, what: string): Promise<string> => {
  const secret = await secrets.send(new GetSecretValueCommand({ SecretId: arn }));
  if (!secret.SecretString) throw new Error(`${what} has no value`);
  return secret.SecretString;
};

const build = async (): Promise<BackOfficeApp> => {
  const config = BackOfficeConfig.parse(process.env) as Record<string, string> &
    z.infer<typeof BackOfficeConfig>;
  const origin = config.BACK_OFFICE_URL.replace(/\/+$/, '');
  const secrets = new SecretsManagerClient({});
  const dynamo = createDocumentClient();
  const s3 = createS3Client({ region: config.AWS_REGION });
  const stepFunctions = new SFNClient({});
  const clock = systemClock();
  const ports = (environment: Environment): BackOfficeEnvironmentPorts => {
    const read = (name: string) => settingOf(config, environment, name);
    return {
      ...composeCommonPorts({
        environment,
        dynamo,
        tableName: read('TABLE_NAME'),
        requestHistory: 'off',
      }),
      blobs: blobStoreOver(s3, read('BLOB_BUCKET')),
      // A publish ends the run's lawyer-review wait (its task token), or starts a review run.
      workflows: workflowsOver(
        stepFunctionsWorkflows(stepFunctions, { review: read('REVIEW_STATE_MACHINE_ARN') }),
      ),
      // A sign-up's page shows the buyers' addresses, sealed in its answers.
      answerVault: answerVaultOver(async () =>
        decodeAnswerKey(await secretText(secrets, read('ANSWERS_KEY_SECRET_ARN'), 'the answers key')),
      ),
    };
  };
  return backOfficeApp({
    origin,
    cookies: { secure: true },
    core: {
      directory: composeDirectory(dynamo, config.IDENTITY_TABLE_NAME),
      environments: Object.fromEntries(
        ENVIRONMENTS.map((environment) => [environment, ports(environment)]),
      ) as Record<Environment, BackOfficeEnvironmentPorts>,
    },
    sessions: translatingFaults(
      new DynamoDbPortalSessionStore(dynamo, config.IDENTITY_TABLE_NAME, clock, 'back_office'),
    ),
    signIn: new StaffPoolSignIn({
      issuer: config.STAFF_POOL_ISSUER,
      clientId: config.STAFF_CLIENT_ID,
      clientSecret: await secretText(
        secrets,
        config.STAFF_CLIENT_SECRET_ARN,
        "the back office's client secret",
      ),
      redirectUri: backOfficeRedirectUri(origin),
      postLogoutRedirectUri: `${origin}/`,
      signOutPagesUrl: config.STAFF_POOL_DOMAIN_URL,
    }),
    clock,
    // CloudFront serves the built files from S3; only `/api/*` and `/auth/*` reach this function.
    files: new Map(),
  });
};

const backOffice = builtOnFirstUse(() =>
  build().catch((error: unknown) => {
    throw translateFault(error);
  }),
);

/** The deployed back office's backend. */
export const backOfficeHandler = lambdaHandler(async (request) => (await backOffice()).fetch(request));
