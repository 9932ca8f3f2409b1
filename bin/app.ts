// bin -> the CDK app: one stage per environment (edge, stateful, stateless and shared stacks), and the
// identity stack beside them; `npm run deploy` (bin/deploy.ts) deploys them in order. The stacks are
// environment-agnostic: account and region come from the credentials `cdk deploy` runs with. The sign-up
// form's files are built first (esbuild's API is asynchronous; `tsx` runs this module as ESM, so it can
// wait at the top level).
import { App } from 'aws-cdk-lib';
import { buildOnboardingAssets } from '../frontend/onboarding/build';
import { addIdentityStack, addServiceStages, buildIdentityAssets } from '../lib/service-app';

const app = new App();
const stages = addServiceStages(app, await buildOnboardingAssets());
addIdentityStack(app, await buildIdentityAssets(), stages);
