// infra -> one deployed environment: its stateful stack and the stateless stack built on it.
import { Stage, type StageProps, Tags } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { BaseUrls, Environment } from './environments';
import { StatefulStack } from './stateful-stack';
import { StatelessStack } from './stateless-stack';

export interface ServiceStageProps extends StageProps {
  readonly environment: Environment;
  readonly baseUrls: BaseUrls;
}

export class ServiceStage extends Stage {
  readonly stateful: StatefulStack;
  readonly stateless: StatelessStack;

  constructor(scope: Construct, id: string, props: ServiceStageProps) {
    super(scope, id, props);
    const { environment, baseUrls } = props;
    const name = `contract-service-${environment}`;

    this.stateful = new StatefulStack(this, 'Stateful', {
      stackName: `${name}-stateful`,
      description: `contract-service ${environment}: table, blob bucket, token signing key (retained)`,
      environment,
      // The data outlives any mistake in production: deleting the stack needs a deliberate step.
      terminationProtection: environment === 'production',
    });
    this.stateless = new StatelessStack(this, 'Stateless', {
      stackName: `${name}-stateless`,
      description: `contract-service ${environment}: HTTP API, functions, contract pipeline, webhook delivery, upload ingest service, CloudFront (API and hosted pages)`,
      resources: {
        environment,
        baseUrls,
        table: this.stateful.table,
        blobBucket: this.stateful.blobBucket,
        signingSecret: this.stateful.signingSecret,
      },
    });
    Tags.of(this).add('service', 'contract-service');
    Tags.of(this).add('environment', environment);
  }
}
