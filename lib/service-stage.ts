// infra -> one deployed environment: its stateful stack and the stateless stack built on it.
import { Stage, type StageProps, Tags } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { OnboardingAssets } from '../frontend/onboarding/build';
import type { BaseUrls, Environment } from './environments';
import { StatefulStack } from './stateful-stack';
import { StatelessStack } from './stateless-stack';

export interface ServiceStageProps extends StageProps {
  readonly environment: Environment;
  readonly baseUrls: BaseUrls;
  /** The sign-up form's frame files and loader, built before the app (frontend/onboarding/build.ts). */
  readonly onboarding: OnboardingAssets;
}

export class ServiceStage extends Stage {
  readonly stateful: StatefulStack;
  readonly stateless: StatelessStack;

  constructor(scope: Construct, id: string, props: ServiceStageProps) {
    super(scope, id, props);
    const { environment, baseUrls, onboarding } = props;
    const name = `contract-service-${environment}`;

    this.stateful = new StatefulStack(this, 'Stateful', {
      stackName: `${name}-stateful`,
      description: `contract-service ${environment}: table, blob bucket, token signing key, form answers key (retained)`,
      environment,
      // The data outlives any mistake in production: deleting the stack needs a deliberate step.
      terminationProtection: environment === 'production',
    });
    this.stateless = new StatelessStack(this, 'Stateless', {
      stackName: `${name}-stateless`,
      description: `contract-service ${environment}: HTTP API, functions, contract pipeline, webhook delivery, upload ingest service, sign-up form, CloudFront (API, hosted pages, form)`,
      resources: {
        environment,
        baseUrls,
        table: this.stateful.table,
        blobBucket: this.stateful.blobBucket,
        signingSecret: this.stateful.signingSecret,
        answersKeySecret: this.stateful.answersKeySecret,
      },
      onboarding,
    });
    Tags.of(this).add('service', 'contract-service');
    Tags.of(this).add('environment', environment);
  }
}
