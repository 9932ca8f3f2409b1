// infra -> the whole deployment: one stage per environment, and the shared identity stack beside them, built
// the same way by `bin/app.ts` and the tests.
import type { App } from 'aws-cdk-lib';
import type { OnboardingAssets } from '../frontend/onboarding/build';
import type { PortalAssets } from '../frontend/portal/served-files';
import { addChecks } from './checks';
import { CLOUDFRONT_REGION, EdgeStack } from './edge-stack';
import { baseUrlsFromContext, type Environment, stageId, stageSettingsFromContext } from './environments';
import { IDENTITY_CONTEXT, identityContextOf } from './identity-context';
import { IdentityStack } from './identity-stack';
import { ServiceStage } from './service-stage';

/**
 * Adds a `ServiceStage` per environment (`Sandbox`, `Production`), reading base addresses and each stage's
 * account and region (`service:<environment>`) from context,
 * and the checks every synthesis runs (lib/checks.ts): an unacknowledged cdk-nag finding fails it.
 * `onboarding`: the sign-up form's files (`await buildOnboardingAssets()`; esbuild builds asynchronously,
 * so they are built before the app rather than by a construct).
 */
export function addServiceStages(
  app: App,
  onboarding: OnboardingAssets,
): Readonly<Record<Environment, ServiceStage>> {
  const baseUrls = baseUrlsFromContext(app);
  const stage = (environment: Environment): ServiceStage =>
    new ServiceStage(app, stageId(environment), {
      environment,
      baseUrls,
      onboarding,
      settings: stageSettingsFromContext(app, environment),
    });
  addChecks(app);
  return { sandbox: stage('sandbox'), production: stage('production') };
}

/**
 * Adds the shared identity stack (`contract-service-identity`, lib/identity-stack.ts) and its edge stack
 * (the web ACL of its distributions, in us-east-1) when context names it (`service:identity`, which must
 * then name both environments' resources); undefined without that context. `portal`: the portal's
 * files (`await buildPortalAssets()`).
 */
export function addIdentityStack(app: App, portal: PortalAssets): IdentityStack | undefined {
  const context = identityContextOf(app);
  if (!context) return undefined;
  const sandbox = context.environments?.sandbox;
  const production = context.environments?.production;
  if (!sandbox || !production)
    throw new Error(`CDK context ${IDENTITY_CONTEXT}.environments must name both sandbox and production`);
  const env =
    context.account && context.region ? { account: context.account, region: context.region } : undefined;
  const edge = new EdgeStack(app, 'IdentityEdge', {
    stackName: 'contract-service-identity-edge',
    description:
      'contract-service identity: the web ACL (AWS WAF) of the identity provider’s and portal’s distributions',
    environment: 'identity',
    ...(env && { env: { account: env.account, region: CLOUDFRONT_REGION } }),
  });
  return new IdentityStack(app, 'Identity', {
    stackName: 'contract-service-identity',
    description:
      'contract-service identity: identity table (retained), identity provider, developer portal, shared by both environments',
    baseUrls: baseUrlsFromContext(app),
    environments: { sandbox, production },
    portalAssets: portal,
    webAclArn: edge.webAcl.attrArn,
    crossRegionReferences: env !== undefined && env.region !== CLOUDFRONT_REGION,
    ...(env && { env }),
  });
}
