// infra -> what `npm run deploy` (bin/deploy.ts) checks before anything is sent to AWS, and the order it
// deploys in. A plain `cdk synth` never runs these checks: the repository's defaults (placeholder
// addresses, no hosted zone) still synthesise, for the tests and for review.
import { App } from 'aws-cdk-lib';
import { ENVIRONMENTS } from '../lambdas/core/model';
import { CLOUDFRONT_REGION } from './edge-stack';
import {
  BASE_URL_CONTEXT,
  baseUrlsFromContext,
  type Environment,
  type StageSettings,
  stageContextKey,
  stageId,
  stageSettingsFromContext,
} from './environments';
import { IDENTITY_CONTEXT, identityContextOf } from './identity-context';

/** A deployment refused before it starts: the message is the one line the operator reads. */
export class DeployRefused extends Error {}

/**
 * Names no one owns: the documentation domains (RFC 2606 and 6761) and local ones. An address under one
 * would be advertised to clients (OpenAPI servers, the MCP resource indicator, published links).
 */
const PLACEHOLDER = /(^|\.)(example\.(com|org|net)|example|test|invalid|localhost|local)$/;

export const isPlaceholderHost = (host: string): boolean => PLACEHOLDER.test(host.toLowerCase());

/**
 * The deployment's refusal, if any, for the context `cdk deploy` would synthesise with and the region the
 * CLI's credentials point at (undefined when none is configured). Refuses: a context value of the wrong
 * shape; a placeholder base address, domain or alarm address; a production stage without a hosted zone
 * (its certificate would wait on a person, and its `execute-api` addresses would stay open beside
 * CloudFront); user pools without an SES sender (`service:identity`.email) or with a placeholder one; a stage's base address that is not its `api` domain; an edge stack that would land outside
 * us-east-1 (an unpinned stage or identity stack deployed from another region); stages and the identity
 * stack in different accounts or regions (they read each other's SSM parameters).
 */
export function deployRefusal(
  context: Record<string, unknown>,
  cliRegion: string | undefined,
): string | undefined {
  try {
    check(context, cliRegion);
    return undefined;
  } catch (error) {
    return (error as Error).message.split('\n')[0];
  }
}

function check(context: Record<string, unknown>, cliRegion: string | undefined): void {
  const app = new App({ context, analyticsReporting: false });
  const baseUrls = baseUrlsFromContext(app);
  const settings = Object.fromEntries(
    ENVIRONMENTS.map((environment) => [environment, stageSettingsFromContext(app, environment)]),
  ) as Record<Environment, StageSettings>;
  const identity = identityContextOf(app);

  for (const environment of ENVIRONMENTS) {
    const host = new URL(baseUrls[environment]).hostname;
    if (isPlaceholderHost(host))
      throw new DeployRefused(
        `CDK context ${BASE_URL_CONTEXT[environment]} is a placeholder (${baseUrls[environment]}): give the ${environment} API's real https address`,
      );
    const { domains, alarmEmail } = settings[environment];
    const key = stageContextKey(environment);
    for (const name of [domains?.api, domains?.pages, domains?.frame, domains?.hostedZone?.name])
      if (name !== undefined && isPlaceholderHost(name))
        throw new DeployRefused(`CDK context ${key}.domains names a placeholder domain (${name})`);
    if (alarmEmail !== undefined && isPlaceholderHost(alarmEmail.split('@')[1] ?? ''))
      throw new DeployRefused(`CDK context ${key}.alarmEmail is a placeholder address (${alarmEmail})`);
    if (domains && host !== domains.api)
      throw new DeployRefused(
        `CDK context ${BASE_URL_CONTEXT[environment]} (${host}) must be https:// ${key}.domains.api (${domains.api})`,
      );
  }
  if (!settings.production.domains?.hostedZone)
    throw new DeployRefused(
      `CDK context ${stageContextKey('production')}.domains.hostedZone is missing: production needs its domains in a Route 53 hosted zone, so its certificates validate unattended and only CloudFront reaches its APIs`,
    );
  // The user pools are shared by both stages, so production's sign-ups depend on their sender.
  if (identity.email === undefined)
    throw new DeployRefused(
      `CDK context ${IDENTITY_CONTEXT}.email is missing: the user pools would send sign-up codes, invitations and password resets through Cognito's own sender, 50 emails a day, which production outgrows unnoticed; give {"from": "no-reply@<a domain verified in SES>"}`,
    );
  if (isPlaceholderHost(identity.email.from.split('@')[1] ?? ''))
    throw new DeployRefused(
      `CDK context ${IDENTITY_CONTEXT}.email.from is a placeholder address (${identity.email.from})`,
    );

  const placed: Array<{ what: string; key: string; account?: string; region?: string; pinned: boolean }> = [
    ...ENVIRONMENTS.map((environment) => ({
      what: `stage ${stageId(environment)}`,
      key: stageContextKey(environment),
      account: settings[environment].account,
      region: settings[environment].region ?? cliRegion,
      pinned: settings[environment].region !== undefined,
    })),
    {
      what: 'the identity stack',
      key: IDENTITY_CONTEXT,
      account: identity.account,
      region: identity.region ?? cliRegion,
      pinned: identity.region !== undefined,
    },
  ];
  for (const { what, key, region, pinned } of placed) {
    if (region === undefined)
      throw new DeployRefused(
        `no AWS region for ${what}: set AWS_REGION (or a profile's region), or pin ${key} {"account": "…", "region": "…"}`,
      );
    if (!pinned && region !== CLOUDFRONT_REGION)
      throw new DeployRefused(
        `${what} is not pinned, so its edge stack (CloudFront's web ACL) would deploy to ${region}, and CloudFront needs it in ${CLOUDFRONT_REGION}: deploy from ${CLOUDFRONT_REGION}, or pin ${key} {"account": "…", "region": "${region}"} for the cross-region wiring`,
      );
  }
  const [first, ...rest] = placed;
  for (const other of rest) {
    if (first && other.region !== first.region)
      throw new DeployRefused(
        `${first.what} (${first.region}) and ${other.what} (${other.region}) must share a region: they read each other's SSM parameters`,
      );
    const accounts = placed.map((p) => p.account).filter((a) => a !== undefined);
    if (new Set(accounts).size > 1)
      throw new DeployRefused(
        `the stages and the identity stack must share an account (context names ${[...new Set(accounts)].join(' and ')}): they read each other's SSM parameters`,
      );
  }
}

/**
 * The one command's steps, each a `cdk deploy` of the synthesised assembly: both stages' own stacks (edge,
 * stateful, stateless; they publish their resources in SSM), then the identity stack (it reads them), then
 * each stage's shared stack (it reads the identity stack's and both stages'). Selectors are the stacks'
 * construct paths, as `cdk ls` shows them.
 */
export const DEPLOY_STEPS: readonly (readonly string[])[] = [
  ENVIRONMENTS.flatMap((environment) =>
    ['Edge', 'Stateful', 'Stateless'].map((stack) => `${stageId(environment)}/${stack}`),
  ),
  ['IdentityEdge', 'Identity'],
  ENVIRONMENTS.map((environment) => `${stageId(environment)}/Shared`),
];
