// infra -> the environments the app deploys, and the settings each one is built from (CDK context).
import type { Construct } from 'constructs';
import type { Environment } from '../lambdas/core/model';

export type { Environment } from '../lambdas/core/model';

/** CDK context keys (`cdk.json`) holding each environment's public API base address. */
export const BASE_URL_CONTEXT: Readonly<Record<Environment, string>> = {
  sandbox: 'service:sandboxBaseUrl',
  production: 'service:productionBaseUrl',
};

export type BaseUrls = Readonly<Record<Environment, string>>;

/** Reads both base addresses from context once; a missing or non-https value fails the synth. */
export function baseUrlsFromContext(scope: Construct): BaseUrls {
  const read = (environment: Environment): string => {
    const key = BASE_URL_CONTEXT[environment];
    const value: unknown = scope.node.tryGetContext(key);
    if (typeof value !== 'string' || !URL.canParse(value) || new URL(value).protocol !== 'https:') {
      throw new Error(`CDK context ${key} must be an https URL, got ${JSON.stringify(value)}`);
    }
    return value.replace(/\/+$/, '');
  };
  return { sandbox: read('sandbox'), production: read('production') };
}

/** `Sandbox`, `Production`: construct ids of the stages. */
export const stageId = (environment: Environment): string =>
  environment.charAt(0).toUpperCase() + environment.slice(1);
