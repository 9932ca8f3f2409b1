// infra -> the whole deployment: one stage per environment, built the same way by `bin/app.ts` and the tests.
import type { App } from 'aws-cdk-lib';
import { baseUrlsFromContext, type Environment, stageId } from './environments';
import { ServiceStage } from './service-stage';

/** Adds a `ServiceStage` per environment (`Sandbox`, `Production`), reading base addresses from context. */
export function addServiceStages(app: App): Readonly<Record<Environment, ServiceStage>> {
  const baseUrls = baseUrlsFromContext(app);
  const stage = (environment: Environment): ServiceStage =>
    new ServiceStage(app, stageId(environment), { environment, baseUrls });
  return { sandbox: stage('sandbox'), production: stage('production') };
}
