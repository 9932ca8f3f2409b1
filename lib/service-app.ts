// infra -> the whole deployment: one stage per environment, built the same way by `bin/app.ts` and the tests.
import type { App } from 'aws-cdk-lib';
import type { OnboardingAssets } from '../frontend/onboarding/build';
import { addChecks } from './checks';
import { baseUrlsFromContext, type Environment, stageId, stageSettingsFromContext } from './environments';
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
