// infra -> the rotation of an origin secret (the value CloudFront sends its origins in `x-origin-verify`):
// every 30 days a function (workers/origin-secret-rotation.ts) brings in a new value and changes, in step,
// the header of every distribution that sends it and, for the ingest, the load balancer's listener rule.
// The ingest's secret (lib/upload-ingest.ts) and the identity stack's (lib/origin-protection.ts) rotate so.
import { Duration, Fn } from 'aws-cdk-lib';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import type { ApplicationListenerRule } from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { ROTATION_SETTINGS } from '../lambdas/adapters/origin-secret-ports';
import { ServiceFunction } from './service-function';

/** Header CloudFront adds to every request it forwards to a protected origin (lower case, as Node sees it). */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/** How often an origin secret is rotated. */
export const ORIGIN_SECRET_ROTATION_DAYS = 30;

export interface OriginSecretRotationProps {
  readonly secret: Secret;
  /** Every distribution that sends the secret in its origins' header. */
  readonly distributions: readonly Distribution[];
  /** The listener rule that admits only the header's values, where one does (the ingest's). */
  readonly rule?: ApplicationListenerRule;
  /** What the function rotates, for its description. */
  readonly owner: string;
}

/**
 * Rotates `secret` every 30 days with a function (id `id` under `scope`) that may change only the rule and
 * the distributions given, and this secret's versions. Not at once when the schedule is made: a rotation
 * would then race the deployment that makes it, which may itself be updating a distribution.
 */
export function rotateOriginSecret(
  scope: Construct,
  id: string,
  { secret, distributions, rule, owner }: OriginSecretRotationProps,
): ServiceFunction {
  const rotation = new ServiceFunction(scope, id, {
    entry: 'lambdas/hosts/aws/functions/rotate-origin-secret.ts',
    description: `${owner}: rotate the origin secret (${rule ? 'listener rule, ' : ''}CloudFront header, secret)`,
    memorySize: 256,
    // testSecret waits up to about 10 minutes for CloudFront to deploy the pending value.
    timeout: Duration.minutes(12),
    environment: {
      [ROTATION_SETTINGS.secret]: secret.secretArn,
      [ROTATION_SETTINGS.header]: ORIGIN_VERIFY_HEADER,
      [ROTATION_SETTINGS.distributions]: Fn.join(
        ',',
        distributions.map((distribution) => distribution.distributionId),
      ),
      ...(rule && { [ROTATION_SETTINGS.rule]: rule.listenerRuleArn }),
    },
  });
  if (rule)
    rotation.addToRolePolicy(
      new PolicyStatement({
        actions: ['elasticloadbalancing:ModifyRule'],
        resources: [rule.listenerRuleArn],
      }),
    );
  for (const distribution of distributions)
    distribution.grant(
      rotation,
      'cloudfront:GetDistribution',
      'cloudfront:GetDistributionConfig',
      'cloudfront:UpdateDistribution',
    );
  // CDK grants the rotation's Secrets Manager actions on this secret alone (and GetRandomPassword,
  // which takes no resource), and lets Secrets Manager invoke the function.
  secret.addRotationSchedule('Rotation', {
    rotationLambda: rotation,
    automaticallyAfter: Duration.days(ORIGIN_SECRET_ROTATION_DAYS),
    rotateImmediatelyOnUpdate: false,
  });
  return rotation;
}
