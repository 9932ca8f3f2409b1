// bin/deploy-check -> the full configuration the deploy rehearsal synthesises: the repository's context with
// both stages' domains in a hosted zone and an alarm address, the user pools' SES sender, as a first production deployment has them. The
// domain is a stand-in, not a placeholder the deploy command refuses: nothing is deployed with it.
import { readFileSync } from 'node:fs';
import { App } from 'aws-cdk-lib';
import { buildOnboardingAssets } from '../../frontend/onboarding/build';
import { fromRoot } from '../../lib/paths';
import { addIdentityStack, addServiceStages, buildIdentityAssets } from '../../lib/service-app';

const ZONE = { id: 'Z0REHEARSAL000', name: 'contracts.acme-homes.co.uk' };

const domains = (at: string) => ({
  api: `api.${at}${ZONE.name}`,
  pages: `pages.${at}${ZONE.name}`,
  frame: `form.${at}${ZONE.name}`,
  hostedZone: ZONE,
});

export const REHEARSAL_CONTEXT: Record<string, unknown> = {
  ...JSON.parse(readFileSync(fromRoot('cdk.json'), 'utf8')).context,
  'service:sandboxBaseUrl': `https://api.sandbox.${ZONE.name}`,
  'service:productionBaseUrl': `https://api.${ZONE.name}`,
  'service:sandbox': { domains: domains('sandbox.'), alarmEmail: `operations@${ZONE.name}` },
  'service:production': { domains: domains(''), alarmEmail: `operations@${ZONE.name}` },
  'service:identity': { email: { from: `no-reply@${ZONE.name}`, region: 'us-east-1' } },
};

/** The whole app (both stages, the identity and shared stacks) with the rehearsal's context, not yet synthesised. */
export const rehearsalApp = async (outdir: string, context: Record<string, unknown> = {}): Promise<App> => {
  const app = new App({ outdir, context: { ...REHEARSAL_CONTEXT, ...context } });
  addIdentityStack(app, await buildIdentityAssets(), addServiceStages(app, await buildOnboardingAssets()));
  return app;
};
