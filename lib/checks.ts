// infra -> the checks every synthesis runs: cdk-nag's AwsSolutions pack over the whole app, with each
// finding a resource accepts acknowledged next to that resource, with why. A finding that names another
// resource (IAM5's `Resource::<an ARN>`) differs per stage and per synthesis, so such findings are
// acknowledged by a pattern (`acknowledgeFindings`), which `ServiceChecks` applies before CDK reports.
import {
  type App,
  type IPolicyValidationContext,
  type IPolicyValidationPlugin,
  type PolicyValidationPluginReport,
  type PolicyViolation,
  Stack,
  Validations,
} from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/** The rule pack's name: CDK reports and acknowledges its rules as `AwsSolutions::<rule>`. */
const PACK = 'AwsSolutions';

/** Acknowledges one finding of the pack on `scope` and everything under it, e.g. `AwsSolutions-CFR1`. */
export function acknowledge(scope: IConstruct, rule: string, reason: string): void {
  Validations.of(scope).acknowledge({ id: rule, reason });
}

/** Where the pattern acknowledgements are kept: construct metadata, like CDK's own acknowledgements. */
const PATTERN_METADATA = 'service:acknowledged-findings';

interface PatternAcknowledgement {
  readonly pattern: string;
  readonly reason: string;
}

/**
 * Acknowledges every finding of the pack on `scope` (and under it) whose id matches `pattern` in full,
 * e.g. /AwsSolutions-IAM5\[Resource::.*\/published\/\*\]/ for object grants under `published/`.
 */
export function acknowledgeFindings(scope: IConstruct, pattern: RegExp, reason: string): void {
  const entry: PatternAcknowledgement = { pattern: pattern.source, reason };
  scope.node.addMetadata(PATTERN_METADATA, entry);
}

const patternsOf = (construct: IConstruct): PatternAcknowledgement[] =>
  construct.node.scopes.flatMap((scope) =>
    scope.node.metadata
      .filter((entry) => entry.type === PATTERN_METADATA)
      .map((entry) => entry.data as PatternAcknowledgement),
  );

/**
 * The AwsSolutions pack, less the findings acknowledged by a pattern on the resource or a scope above it.
 * A warning fails the synthesis as an error does: every finding is fixed or acknowledged with its reason.
 */
export class ServiceChecks implements IPolicyValidationPlugin {
  readonly name = PACK;
  private readonly pack: AwsSolutionsChecks;

  constructor(private readonly app: App) {
    this.pack = new AwsSolutionsChecks(app, { verbose: true });
  }

  validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const report = this.pack.validate(context);
    const byPath = new Map(this.app.node.findAll().map((construct) => [construct.node.path, construct]));
    const accepted = (ruleName: string, path: string | undefined): boolean => {
      const construct = path === undefined ? undefined : byPath.get(path);
      if (!construct) return false;
      return patternsOf(construct).some(({ pattern }) => new RegExp(`^(?:${pattern})$`).test(ruleName));
    };
    const violations: PolicyViolation[] = report.violations.flatMap((violation) => {
      const violatingResources = violation.violatingResources.filter(
        (resource) => !accepted(violation.ruleName, resource.constructPath),
      );
      return violatingResources.length > 0 ? [{ ...violation, violatingResources }] : [];
    });
    return { ...report, violations, success: violations.length === 0 };
  }
}

/** Runs the checks in every synthesis of `app`: a finding nobody acknowledged fails it. */
export const addChecks = (app: App): void => Validations.of(app).addPlugins(new ServiceChecks(app));

/**
 * The singleton function CDK adds to the stack for a construct of its own (a bucket deployment's, a custom
 * resource's), found by the id CDK gives it, to acknowledge what CDK decides of it: its runtime and role.
 */
export function cdkSingleton(scope: IConstruct, idPrefix: string): IConstruct {
  const stack = Stack.of(scope);
  const singleton = stack.node.children.find((child) => child.node.id.startsWith(idPrefix));
  if (!singleton) throw new Error(`no CDK singleton ${idPrefix}* in ${stack.node.path}`);
  return singleton;
}

/**
 * Acknowledges the findings on CDK's bucket deployment function in `scope`'s stack: its managed log
 * policy, its runtime, and its wildcards over the staged files and `destination` (which holds only
 * what is deployed there).
 */
export function acknowledgeBucketDeployment(scope: IConstruct, destination: string): void {
  const deploymentFunction = cdkSingleton(scope, 'Custom::CDKBucketDeployment');
  acknowledge(
    deploymentFunction,
    'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
    'CDK’s bucket deployment function: Lambda’s basic execution policy writes its log lines only.',
  );
  acknowledge(
    deploymentFunction,
    'AwsSolutions-L1',
    'CDK’s bucket deployment function: its runtime is CDK’s choice.',
  );
  acknowledgeFindings(
    deploymentFunction,
    /AwsSolutions-IAM5\[(Action::s3:(GetObject|GetBucket|List|DeleteObject|Abort)\*|Resource::.+\/\*)\]/,
    `CDK’s bucket deployment function: it reads the staged files from CDK’s asset bucket and writes (and replaces) them in ${destination}, which holds nothing else.`,
  );
}
