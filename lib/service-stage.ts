// infra -> one deployed environment: its stateful stack and the stateless stack built on it.
import { Aspects, Stage, type StageProps, Tags } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { OnboardingAssets } from '../frontend/onboarding/build';
import { CLOUDFRONT_REGION, EdgeStack } from './edge-stack';
import { type BaseUrls, type Environment, type StageSettings, serviceStackName } from './environments';
import { statefulFromParameters } from './identity-context';
import { DEFAULT_RESERVED_CONCURRENCY, ReservedConcurrency } from './reserved-concurrency';
import { StatefulStack } from './stateful-stack';
import { StatelessStack } from './stateless-stack';

export interface ServiceStageProps extends StageProps {
  readonly environment: Environment;
  readonly baseUrls: BaseUrls;
  /** The sign-up form's frame files and loader, built before the app (frontend/onboarding/build.ts). */
  readonly onboarding: OnboardingAssets;
  /** Where the stage deploys (`service:<environment>` in context); agnostic when not given. */
  readonly settings: StageSettings;
}

export class ServiceStage extends Stage {
  /** CloudFront's web ACL, in us-east-1 (or, for an agnostic stage, wherever the stage is deployed). */
  readonly edge: EdgeStack;
  readonly stateful: StatefulStack;
  readonly stateless: StatelessStack;

  constructor(scope: Construct, id: string, props: ServiceStageProps) {
    const { environment, baseUrls, onboarding, settings } = props;
    const env = settings.account ? { account: settings.account, region: settings.region } : undefined;
    super(scope, id, { ...props, ...(env && { env }) });

    this.edge = new EdgeStack(this, 'Edge', {
      stackName: serviceStackName(environment, 'edge'),
      description: `contract-service ${environment}: CloudFront's web ACL (AWS WAF), in ${CLOUDFRONT_REGION}`,
      environment,
      ...(settings.domains && { domains: settings.domains }),
      ...(env && { env: { account: env.account, region: CLOUDFRONT_REGION } }),
    });

    this.stateful = new StatefulStack(this, 'Stateful', {
      stackName: serviceStackName(environment, 'stateful'),
      description: `contract-service ${environment}: table, blob bucket, access-token key, form answers key (retained)`,
      environment,
      // The data outlives any mistake in production: deleting the stack needs a deliberate step.
      terminationProtection: environment === 'production',
    });
    this.stateless = new StatelessStack(this, 'Stateless', {
      stackName: serviceStackName(environment, 'stateless'),
      description: `contract-service ${environment}: HTTP API, functions, contract pipeline, webhook delivery, upload ingest service, sign-up form, CloudFront (API, hosted pages, form)`,
      // Read through SSM parameters at deployment, never exports (lib/identity-context.ts, lib/edge-stack.ts).
      resources: (stack) => {
        const certificate = this.edge.certificateIn(stack);
        return {
          environment,
          baseUrls,
          ...statefulFromParameters(stack, environment),
          webAclArn: this.edge.webAclArnIn(stack),
          ...(settings.domains && certificate && { domains: { ...settings.domains, certificate } }),
        };
      },
      // The web ACL is in us-east-1: a stage pinned elsewhere reads its ARN across regions.
      crossRegionReferences: env !== undefined && env.region !== CLOUDFRONT_REGION,
      onboarding,
      ...(settings.alarmEmail && { alarmEmail: settings.alarmEmail }),
    });
    // Nothing is exported between them: the order is stated.
    this.stateless.addStackDependency(this.stateful, 'reads its SSM parameters');
    this.stateless.addStackDependency(this.edge, 'reads its SSM parameters');
    // Every function of the stage, its shared stack's (added later) included.
    Aspects.of(this).add(
      new ReservedConcurrency(settings.reservedConcurrency ?? DEFAULT_RESERVED_CONCURRENCY[environment]),
    );
    Tags.of(this).add('service', 'contract-service');
    Tags.of(this).add('environment', environment);
  }
}
