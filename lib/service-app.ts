// infra -> the whole deployment: one stage per environment, built the same way by `bin/app.ts` and the tests.
import type { App } from 'aws-cdk-lib';
import type { OnboardingAssets } from '../frontend/onboarding/build';
import { baseUrlsFromContext, type Environment, stageId } from './environments';
import { ServiceStage } from './service-stage';

/**
 * Adds a `ServiceStage` per environment (`Sandbox`, `Production`), reading base addresses from context.
 * `onboarding`: the sign-up form's files (`await buildOnboardingAssets()`; esbuild builds asynchronously,
 * so they are built before the app rather than by a construct).
 */
export function addServiceStages(
  app: App,
  onboarding: OnboardingAssets,
): Readonly<Record<Environment, ServiceStage>> {
  const baseUrls = baseUrlsFromContext(app);
  const stage = (environment: Environment): ServiceStage =>
    new ServiceStage(app, stageId(environment), { environment, baseUrls, onboarding });
  return { sandbox: stage('sandbox'), production: stage('production') };
}
