// infra -> the whole deployment: one stage per environment, and the shared identity stack beside them, built
// the same way by `bin/app.ts` and the tests.
import { type App, Aspects } from 'aws-cdk-lib';
import { buildBackOfficeAssets } from '../frontend/back-office/build';
import type { OnboardingAssets } from '../frontend/onboarding/build';
import { buildPortalAssets } from '../frontend/portal/build';
import { addChecks } from './checks';
import { CLOUDFRONT_REGION, EdgeStack } from './edge-stack';
import {
  baseUrlsFromContext,
  type Environment,
  serviceStackName,
  stageId,
  stageSettingsFromContext,
} from './environments';
import { HelperFunctionLogs } from './helper-function-logs';
import { identityContextOf } from './identity-context';
import { type IdentityAssets, IdentityStack } from './identity-stack';
import { ServiceStage } from './service-stage';
import { SharedStack } from './shared-stack';

/**
 * Adds a `ServiceStage` per environment (`Sandbox`, `Production`), reading base addresses and each stage's
 * account and region (`service:<environment>`) from context,
 * and the checks every synthesis runs (lib/checks.ts): an unacknowledged cdk-nag finding fails it; CDK's
 * helper functions get log groups with a retention (lib/helper-function-logs.ts).
 * `onboarding`: the sign-up form's files (`await buildOnboardingAssets()`; esbuild builds asynchronously,
 * so they are built before the app rather than by a construct).
 */
export function addServiceStages(
  app: App,
  onboarding: OnboardingAssets,
): Readonly<Record<Environment, ServiceStage>> {
  const baseUrls = baseUrlsFromContext(app);
  const stage = (environment: Environment): ServiceStage => {
    const added = new ServiceStage(app, stageId(environment), {
      environment,
      baseUrls,
      onboarding,
      settings: stageSettingsFromContext(app, environment),
    });
    // A stage is synthesised on its own: the app's aspects do not reach into it.
    Aspects.of(added).add(new HelperFunctionLogs());
    return added;
  };
  addChecks(app);
  Aspects.of(app).add(new HelperFunctionLogs());
  return { sandbox: stage('sandbox'), production: stage('production') };
}

/** Both applications built (esbuild builds asynchronously, so before the app rather than by a construct). */
export const buildIdentityAssets = async (): Promise<IdentityAssets> => ({
  portal: await buildPortalAssets(),
  backOffice: await buildBackOfficeAssets(),
});

/** The identity stack and its edge stack, and each stage's shared stack: deployed after the stages. */
export interface IdentityStacks {
  readonly edge: EdgeStack;
  readonly identity: IdentityStack;
  readonly shared: Readonly<Record<Environment, SharedStack>>;
}

/**
 * Adds the shared identity stack (`contract-service-identity`, lib/identity-stack.ts), its edge stack (the
 * web ACL of its distributions, in us-east-1), and each stage's shared stack (lib/shared-stack.ts: the MCP
 * server, the operators' identity reads). The identity stack reads both stages' SSM parameters and the
 * shared stacks read its own, all at deployment: `npm run deploy` deploys the stages, then the identity
 * stack, then the shared stacks (bin/deploy.ts). `service:identity` in context may pin its account and
 * region, which must be the stages'. `assets`: the portal's and the back office's files
 * (`await buildIdentityAssets()`).
 */
export function addIdentityStack(
  app: App,
  assets: IdentityAssets,
  stages: Readonly<Record<Environment, ServiceStage>>,
): IdentityStacks {
  const env = identityContextOf(app);
  const pinned = env.account !== undefined && env.region !== undefined;
  const baseUrls = baseUrlsFromContext(app);
  const edge = new EdgeStack(app, 'IdentityEdge', {
    stackName: 'contract-service-identity-edge',
    description:
      'contract-service identity: the web ACL (AWS WAF) of the identity provider’s, portal’s and back office’s distributions',
    environment: 'identity',
    ...(pinned && { env: { account: env.account, region: CLOUDFRONT_REGION } }),
  });
  const identity = new IdentityStack(app, 'Identity', {
    stackName: 'contract-service-identity',
    description:
      'contract-service identity: identity table (retained), identity provider, developer portal, back office and staff user pool, shared by both environments',
    baseUrls,
    assets,
    edge,
    ...(env.email && { email: env.email }),
    crossRegionReferences: pinned && env.region !== CLOUDFRONT_REGION,
    ...(pinned && { env: { account: env.account, region: env.region } }),
  });
  identity.addStackDependency(edge, 'reads its SSM parameters');
  const shared = (environment: Environment): SharedStack => {
    const stage = stages[environment];
    const stack = new SharedStack(stage, 'Shared', {
      stackName: serviceStackName(environment, 'shared'),
      description: `contract-service ${environment}: MCP server and the operators' identity reads (after the identity stack)`,
      environment,
      baseUrls,
      originProtected: stage.stateless.originProtection !== undefined,
    });
    // Within the stage, `cdk deploy 'Sandbox/*'` deploys it last; the identity stack's order is bin/deploy.ts's.
    stack.addStackDependency(stage.stateless);
    return stack;
  };
  return { edge, identity, shared: { sandbox: shared('sandbox'), production: shared('production') } };
}
