// infra -> the environments the app deploys, and the settings each one is built from (CDK context).
import type { Construct } from 'constructs';
import type { Environment } from '../lambdas/core/model';

export type { Environment } from '../lambdas/core/model';

/**
 * An object-valued context setting: as written in cdk.json, or as JSON text (`-c 'key={"…": …}'` on the
 * command line, which the CDK CLI passes on as a string); undefined when not given.
 */
export function contextObject(scope: Construct, key: string): unknown {
  const value: unknown = scope.node.tryGetContext(key);
  if (typeof value !== 'string' || !value.trimStart().startsWith('{')) return value;
  try {
    return JSON.parse(value);
  } catch {
    throw new Error(`CDK context ${key} is not valid JSON: ${value}`);
  }
}

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

/** A stage's stacks: the edge (us-east-1), what it keeps, what it runs, and what it shares (lib/shared-stack.ts). */
export type StackPart = 'edge' | 'stateful' | 'stateless' | 'shared';

/**
 * The CloudFormation name of one of a stage's stacks, e.g. `contract-service-sandbox-stateful`: the
 * operator tool finds a deployed stage's outputs by it (bin/ops/deployed-stage.ts).
 */
export const serviceStackName = (environment: Environment, part: StackPart): string =>
  `contract-service-${environment}-${part}`;

/** CDK context key of a stage's own settings, e.g. `service:sandbox` = `{"account": "…", "region": "eu-west-2"}`. */
export const stageContextKey = (environment: Environment): string => `service:${environment}`;

/** Where a stage deploys: both given pin its stacks there; none leaves them environment-agnostic. */
export interface StageSettings {
  readonly account?: string;
  readonly region?: string;
  /** Where the stage's alarms are mailed (`alarmEmail`); none: subscribe to the topic by hand. */
  readonly alarmEmail?: string;
  /** The stage's own domain names (`domains`); none: CloudFront's generated names. */
  readonly domains?: StageDomains;
  /** Concurrent executions reserved for each of the stage's functions (`reservedConcurrency`; 0: none). */
  readonly reservedConcurrency?: number;
}

/**
 * A stage's domain names, each served by its distribution under an ACM certificate (us-east-1); with
 * `hostedZone` (a Route 53 zone holding them) the certificate is validated and the names point at the
 * distributions by records the stack makes, else both are the operator's (README, Deploying).
 */
export interface StageDomains {
  /** The API address (its distribution; `service:<env>BaseUrl` is `https://` this). */
  readonly api: string;
  /** The hosted pages: every published link starts `https://` this. */
  readonly pages: string;
  /** The sign-up form's frame. */
  readonly frame: string;
  readonly hostedZone?: { readonly id: string; readonly name: string };
}

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

const domainsOf = (key: string, value: unknown): StageDomains => {
  if (typeof value !== 'object' || value === null)
    throw new Error(`CDK context ${key}.domains must be an object`);
  const { api, pages, frame, hostedZone } = value as Record<string, unknown>;
  for (const [name, host] of Object.entries({ api, pages, frame }))
    if (typeof host !== 'string' || !HOSTNAME.test(host))
      throw new Error(`CDK context ${key}.domains.${name} must be a lower-case domain name`);
  if (hostedZone === undefined) return { api, pages, frame } as StageDomains;
  const zone = hostedZone as Record<string, unknown>;
  if (typeof zone.id !== 'string' || typeof zone.name !== 'string' || !HOSTNAME.test(zone.name))
    throw new Error(`CDK context ${key}.domains.hostedZone must be {"id": "Z…", "name": "example.com"}`);
  for (const host of [api, pages, frame] as string[])
    if (!host.endsWith(`.${zone.name}`) && host !== zone.name)
      throw new Error(`CDK context ${key}.domains: ${host} is not in the hosted zone ${zone.name}`);
  return { api, pages, frame, hostedZone: { id: zone.id, name: zone.name } } as StageDomains;
};

/** A stage's settings from context; a value of the wrong shape fails the synth. */
export function stageSettingsFromContext(scope: Construct, environment: Environment): StageSettings {
  const key = stageContextKey(environment);
  const value: unknown = contextObject(scope, key) ?? {};
  if (typeof value !== 'object' || value === null) throw new Error(`CDK context ${key} must be an object`);
  const { account, region, alarmEmail, domains, reservedConcurrency } = value as Record<string, unknown>;
  if (alarmEmail !== undefined && (typeof alarmEmail !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(alarmEmail)))
    throw new Error(`CDK context ${key}.alarmEmail must be an email address`);
  if (account !== undefined && (typeof account !== 'string' || !/^\d{12}$/.test(account)))
    throw new Error(`CDK context ${key}.account must be a 12-digit account id`);
  if (region !== undefined && (typeof region !== 'string' || !/^[a-z]{2}(-[a-z]+)+-\d$/.test(region)))
    throw new Error(`CDK context ${key}.region must be a region name such as eu-west-2`);
  if (
    reservedConcurrency !== undefined &&
    (typeof reservedConcurrency !== 'number' ||
      !Number.isInteger(reservedConcurrency) ||
      reservedConcurrency < 0)
  )
    throw new Error(`CDK context ${key}.reservedConcurrency must be a whole number, 0 for none`);
  if ((account === undefined) !== (region === undefined))
    throw new Error(`CDK context ${key} must give both account and region, or neither`);
  return {
    ...(account !== undefined && { account: account as string, region: region as string }),
    ...(alarmEmail !== undefined && { alarmEmail: alarmEmail as string }),
    ...(domains !== undefined && { domains: domainsOf(key, domains) }),
    ...(reservedConcurrency !== undefined && { reservedConcurrency: reservedConcurrency as number }),
  };
}
