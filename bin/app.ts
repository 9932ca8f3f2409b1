// bin -> the CDK app: one stage per environment, each a stateful and a stateless stack. The stacks are
// environment-agnostic: account and region come from the credentials `cdk deploy` runs with.
import { App } from 'aws-cdk-lib';
import { addServiceStages } from '../lib/service-app';

addServiceStages(new App());
