// infra -> the log groups of CDK's own helper functions: the custom resource provider behind every
// `AwsCustomResource`, the bucket emptier behind `autoDeleteObjects` and the provider behind `Trigger`.
// CDK makes them without one, so the Lambda service would create `/aws/lambda/<name>` on first call and
// keep its logs forever (`npm run deploy:check` fails on that). Each is given a log group beside it, kept
// a month as the service's own functions' are (lib/service-function.ts). Only these, by the ids CDK gives
// them: a new kind of helper fails deploy:check until it is added here, rather than passing unseen. Not
// reached: the cross-region references' writer and reader (stages pinned to another region than
// us-east-1), which CDK makes after the aspects have run.
import { CfnResource, type IAspect, Stack } from 'aws-cdk-lib';
import { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IConstruct } from 'constructs';

/** Construct ids (or their starts) of CDK's helper providers, children of their stack. */
export const CDK_HELPER_PROVIDERS = [
  // AwsCustomResource's singleton function.
  'AWS679f53fac002430cb0da5b7982bd2287',
  // Bucket `autoDeleteObjects`.
  'Custom::S3AutoDeleteObjectsCustomResourceProvider',
  // `triggers.Trigger`.
  'AWSCDK.TriggerCustomResourceProvider',
] as const;

/** How long a helper function's logs are kept. */
export const HELPER_LOG_RETENTION = RetentionDays.ONE_MONTH;

const isHelper = (construct: IConstruct): boolean => {
  const provider = construct.node.scope;
  return (
    provider !== undefined &&
    Stack.isStack(provider.node.scope) &&
    CDK_HELPER_PROVIDERS.some((id) => provider.node.id.startsWith(id))
  );
};

export class HelperFunctionLogs implements IAspect {
  visit(construct: IConstruct): void {
    if (!(construct instanceof CfnResource) || construct.cfnResourceType !== 'AWS::Lambda::Function') return;
    if (!isHelper(construct)) return;
    const provider = construct.node.scope as IConstruct;
    if (provider.node.tryFindChild('Logs')) return;
    const logGroup = new LogGroup(provider, 'Logs', { retention: HELPER_LOG_RETENTION });
    if (construct instanceof CfnFunction) construct.loggingConfig = { logGroup: logGroup.logGroupName };
    else construct.addPropertyOverride('LoggingConfig.LogGroup', logGroup.logGroupName);
  }
}
