// infra -> what an environment runs: the hosted pages' distribution, the contract pipeline (workers and
// state machines), webhook delivery (event bus, publisher, fan-out queue and consumer, and the delivery
// state machine), the re-drive of recorded
// runs, the HTTP API with a function per endpoint, the upload ingest service, the CloudFront
// distribution in front of both (which also serves the sign-up form's loader), and the sign-up form
// (its frame API and distribution). Safe to delete and redeploy.
import { CfnOutput, Duration, NestedStack, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpLambdaAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  Distribution,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  type IOrigin,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { VpcOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import type { OnboardingAssets } from '../frontend/onboarding/build';
import { ROUTES } from '../lambdas/api/routes';
import type { RunKind } from '../lambdas/core/ports';
import { acknowledge } from './checks';
import { ContractPipeline } from './contract-pipeline';
import {
  completeDistribution,
  distributionDefaults,
  domainOf,
  edgeLogBucket,
  STRICT_TRANSPORT_SECURITY,
} from './distribution-defaults';
import { HostedPages } from './hosted-pages';
import { httpApiOrigin } from './http-api-origin';
import { EnvironmentParameters } from './identity-context';
import { OnboardingAcceptance } from './onboarding-acceptance';
import { LOADER_PATH, OnboardingFrame } from './onboarding-frame';
import { Operations } from './operations';
import { OperatorPolicy } from './operator-policy';
import { OriginProtection } from './origin-protection';
import { ORIGIN_VERIFY_HEADER } from './origin-secret-rotation';
import { RunRedrive } from './run-redrive';
import { ServiceApi } from './service-api';
import type { ServiceFunction } from './service-function';
import { UploadIngest } from './upload-ingest';
import { WebhookDelivery } from './webhook-delivery';
import type { HostResources, ServiceResources } from './wiring';

export interface StatelessStackProps extends StackProps {
  /** The stateful and edge stacks' resources as this stack references them (`stack` is this stack). */
  readonly resources: (stack: Stack) => ServiceResources;
  /** The sign-up form's files and loader (lib/onboarding-frame.ts). */
  readonly onboarding: OnboardingAssets;
  /** Where the stage's alarms are mailed, if anywhere (lib/operations.ts). */
  readonly alarmEmail?: string;
}

/** CloudFront path patterns of the upload routes: `{id}` becomes `*`. */
export const UPLOAD_PATH_PATTERNS: readonly string[] = ROUTES.filter((route) => route.upload).map((route) =>
  route.path.replace(/\{[^}]+\}/g, '*'),
);

export class StatelessStack extends Stack {
  /** The nested stack of the workflows: pipeline, webhook delivery, acceptance, re-drive. */
  readonly workflows: NestedStack;
  /** The nested stack of the HTTP API and its functions. */
  readonly apiStack: NestedStack;
  readonly pages: HostedPages;
  readonly pipeline: ContractPipeline;
  readonly delivery: WebhookDelivery;
  readonly acceptance: OnboardingAcceptance;
  /** The state machine of each kind of run. */
  readonly stateMachines: Readonly<Record<RunKind, StateMachine>>;
  /** Starts recorded runs of every kind that never started, every few minutes. */
  readonly redrive: ServiceFunction;
  readonly api: ServiceApi;
  readonly ingest: UploadIngest;
  /** The sign-up form: its frame address, frame API and files, and the loader this stack's API serves. */
  readonly onboarding: OnboardingFrame;
  readonly distribution: Distribution;
  /** The alarm topic, the alarms and the dashboard. */
  readonly operations: Operations;
  /** CloudFront's and the ingest load balancer's logs. */
  readonly logBucket: Bucket;
  /** What the operator tool does against this stage (lib/operator-policy.ts). */
  readonly operatorPolicy: OperatorPolicy;
  /** Every route's check of CloudFront's origin secret, where the APIs' `execute-api` addresses stay on. */
  readonly originProtection: OriginProtection | undefined;

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    const service = props.resources(this);
    this.logBucket = edgeLogBucket(this, 'EdgeLogs');
    this.pages = new HostedPages(this, 'Pages', {
      environment: service.environment,
      blobBucket: service.blobBucket,
      webAclArn: service.webAclArn,
      logBucket: this.logBucket,
      domain: domainOf(service.domains, 'pages'),
    });
    const resources: HostResources = {
      ...service,
      pagesBaseUrl: this.pages.baseUrl,
      logBucket: this.logBucket,
    };

    // Two jobs in nested stacks of their own (each up to CloudFormation's 500 resources, counted as one
    // here), their alarms beside them (lib/operations.ts): the workflows (the contract pipeline, webhook
    // delivery, the acceptance of sign-ups, the re-drive) and the HTTP API with a function per endpoint.
    // CDK passes what crosses between them as the nested stacks' parameters and outputs, never exports.
    // Construct ids under each are as they were in this stack, so their logical ids are too.
    this.workflows = new NestedStack(this, 'Workflows', {
      description: `contract-service ${resources.environment}: contract pipeline, webhook delivery, acceptance, re-drive`,
    });
    this.apiStack = new NestedStack(this, 'HttpApi', {
      description: `contract-service ${resources.environment}: HTTP API, a function per endpoint`,
    });

    // No cycle: the state machines reference the workers, the hosts that start runs reference the state
    // machines, and no worker a state machine runs is told a state machine's ARN. Each host that starts
    // runs is told (and may start) exactly the kinds it starts: the uploads accept versions (contract
    // runs); the fan-out, the delivery consumer and the re-drive may start a delivery's wait (past the
    // delivery queue's 15 minutes); the re-drive starts whatever was recorded.
    this.pipeline = new ContractPipeline(this.workflows, 'Pipeline', resources);
    this.delivery = new WebhookDelivery(this.workflows, 'Webhooks', resources);
    this.acceptance = new OnboardingAcceptance(this.workflows, 'Acceptance', resources);
    this.stateMachines = {
      ...this.pipeline.stateMachines,
      delivery: this.delivery.stateMachine,
      acceptance: this.acceptance.stateMachine,
    };
    const contractRuns = { contract: this.stateMachines.contract };
    this.ingest = new UploadIngest(this, 'UploadIngest', resources, contractRuns);
    // Without a hosted zone the APIs keep their `execute-api` addresses (lib/http-api-origin.ts): every
    // route then admits only CloudFront, by the ingest's origin secret, which CloudFront sends to all three.
    this.originProtection = resources.domains?.hostedZone
      ? undefined
      : new OriginProtection(
          this,
          'OriginProtection',
          `contract-service ${resources.environment}`,
          this.ingest.originVerifySecret,
        );
    this.api = new ServiceApi(
      this.apiStack,
      'Api',
      resources,
      contractRuns,
      this.originProtection?.authorizer(),
    );
    this.redrive = new RunRedrive(
      this.workflows,
      'Redrive',
      resources,
      this.stateMachines,
      this.delivery.deliveryQueue,
    ).function;
    this.onboarding = new OnboardingFrame(this, 'Onboarding', {
      resources,
      stateMachines: { acceptance: this.stateMachines.acceptance },
      assets: props.onboarding,
      ...(this.originProtection && { originProtection: this.originProtection }),
    });

    // An API answers per caller: nothing is cached, and every header but Host reaches the origin
    // (with caching disabled this policy also forwards Authorization).
    // The API's answers are JSON for programs: HSTS, no sniffing, never framed, no referrer.
    const apiHeaders = new ResponseHeadersPolicy(this, 'ApiHeaders', {
      comment: `contract-service ${resources.environment}: API`,
      securityHeadersBehavior: {
        strictTransportSecurity: STRICT_TRANSPORT_SECURITY,
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
      },
    });
    const behaviour = (origin: IOrigin): BehaviorOptions => ({
      origin,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      responseHeadersPolicy: apiHeaders,
      // Not a redirect: a client's POST would be replayed as a GET without its body.
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
    });
    const apiOrigin = httpApiOrigin(
      this,
      'ApiOrigin',
      this.api.httpApi,
      resources.domains,
      'api',
      this.originProtection?.originHeaders,
    );
    // A VPC origin: the load balancer is internal, reached over AWS's network (lib/upload-ingest.ts).
    const ingestOrigin = VpcOrigin.withApplicationLoadBalancer(this.ingest.loadBalancer, {
      protocolPolicy: OriginProtocolPolicy.HTTP_ONLY,
      httpPort: 80,
      customHeaders: { [ORIGIN_VERIFY_HEADER]: this.ingest.originVerifySecret.secretValue.unsafeUnwrap() },
      // The answer comes after the whole body is stored and checked (60 s is the most without a quota raise).
      readTimeout: Duration.seconds(60),
    });

    const apiDomain = domainOf(resources.domains, 'api');
    this.distribution = new Distribution(this, 'Front', {
      comment: `contract-service ${resources.environment}`,
      defaultBehavior: behaviour(apiOrigin),
      additionalBehaviors: Object.fromEntries([
        ...UPLOAD_PATH_PATTERNS.map((pattern) => [pattern, behaviour(ingestOrigin)]),
        [LOADER_PATH, this.onboarding.loaderBehaviour],
      ]),
      ...distributionDefaults({ ...resources, logFilePrefix: 'cloudfront/api/', domain: apiDomain }),
    });
    completeDistribution(this.distribution, apiDomain);
    this.ingest.rotateOriginSecret([
      this.distribution,
      ...(this.originProtection ? [this.onboarding.distribution] : []),
    ]);
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR5',
      'The ingest origin is a VPC origin: HTTP to an internal load balancer over AWS’s network, never the internet; the API origin is HTTPS with TLS 1.2.',
    );

    // Last: it alarms on every function, state machine and queue the stack has.
    this.operations = new Operations(this, 'Operations', {
      environment: resources.environment,
      ...(props.alarmEmail && { alarmEmail: props.alarmEmail }),
      httpApis: { Api: this.api.httpApi, FrameApi: this.onboarding.httpApi },
      ingestTargets: this.ingest.targetGroup,
      redrive: this.redrive,
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      description: 'SNS topic every alarm of the stage notifies: subscribe the operators to it',
      value: this.operations.topic.topicArn,
    });

    new CfnOutput(this, 'DistributionDomainName', {
      description: 'Public front of the environment (CloudFront)',
      value: this.distribution.distributionDomainName,
    });
    new CfnOutput(this, 'PagesBaseUrl', {
      description:
        'Hosted pages of the environment (CloudFront over the published/ folder of the blob bucket)',
      value: this.pages.baseUrl,
    });
    new CfnOutput(this, 'FrameUrl', {
      description: 'Sign-up form frame address (CloudFront over the frame files and the frame API)',
      value: this.onboarding.origin,
    });
    new CfnOutput(this, 'FrameApiUrl', {
      description:
        'Frame API endpoint (switched off when the stage’s domains are in a hosted zone; the frame calls it through its own address)',
      value: this.onboarding.httpApi.apiEndpoint,
    });
    new CfnOutput(this, 'ContractStateMachineArn', {
      description: 'State machine of contract runs (started by the uploads)',
      value: this.stateMachines.contract.stateMachineArn,
    });
    new CfnOutput(this, 'ReviewStateMachineArn', {
      description: 'State machine of review runs (started when a lawyer publishes a review)',
      value: this.stateMachines.review.stateMachineArn,
    });
    new CfnOutput(this, 'DeliveryStateMachineArn', {
      description: "State machine of webhook deliveries waiting past the delivery queue's 15 minutes",
      value: this.stateMachines.delivery.stateMachineArn,
    });
    this.operatorPolicy = this.addOperatorOutputs(resources);
    new CfnOutput(this, 'ApiUrl', {
      description:
        'HTTP API endpoint (switched off when the stage’s domains are in a hosted zone; CloudFront adds the upload ingest service)',
      value: this.api.httpApi.apiEndpoint,
    });
    new CfnOutput(this, 'DeliveryQueueArn', {
      description: 'Webhook delivery queue',
      value: this.delivery.deliveryQueue.queueArn,
    });
    // What the identity stack's portal and back office and the shared stacks' MCP servers read
    // (lib/identity-context.ts), beside what the stateful stack publishes.
    new EnvironmentParameters(this, 'Published', resources.environment, {
      pagesBaseUrl: this.pages.baseUrl,
      frameUrl: this.onboarding.origin,
      deliveryQueueArn: this.delivery.deliveryQueue.queueArn,
      deliveryQueueUrl: this.delivery.deliveryQueue.queueUrl,
      deliveryStateMachineArn: this.delivery.stateMachine.stateMachineArn,
      httpApiId: this.api.httpApi.apiId,
      contractStateMachineArn: this.stateMachines.contract.stateMachineArn,
      reviewStateMachineArn: this.stateMachines.review.stateMachineArn,
      alarmTopicArn: this.operations.topic.topicArn,
      // The shared stack's MCP routes need it too (lib/mcp-server.ts).
      ...(this.originProtection && { originAuthorizerId: this.apiAuthorizerId() }),
    });
  }

  /** The id of the API's origin authorizer (bound by its routes). */
  private apiAuthorizerId(): string {
    const authorizer = this.api.httpApi.defaultAuthorizer;
    if (!(authorizer instanceof HttpLambdaAuthorizer)) throw new Error('the API has no origin authorizer');
    return authorizer.authorizerId;
  }

  /**
   * The operators' policy, and what the operator tool reads besides the state machines' ARNs above
   * (bin/ops/deployed-stage.ts): the identity table is named by the stage's shared stack.
   */
  private addOperatorOutputs(resources: HostResources): OperatorPolicy {
    const operators = new OperatorPolicy(this, 'Operators', {
      environment: resources.environment,
      table: resources.table,
      blobBucket: resources.blobBucket,
      stateMachines: this.stateMachines,
      deliveryQueue: this.delivery.deliveryQueue,
    });
    const outputs: Record<string, [string, string]> = {
      OperatorPolicyArn: [
        'Managed policy of what the operator tool does against this stage: attach it to the operators',
        operators.policy.managedPolicyArn,
      ],
      AcceptanceStateMachineArn: [
        'State machine of acceptance runs (a sandbox sign-up accepted a minute after it was submitted)',
        this.stateMachines.acceptance.stateMachineArn,
      ],
      DeliveryQueueUrl: ['Queue of webhook deliveries handed on', this.delivery.deliveryQueue.queueUrl],
      SandboxBaseUrl: ['Public base address of the sandbox API', resources.baseUrls.sandbox],
      ProductionBaseUrl: ['Public base address of the production API', resources.baseUrls.production],
    };
    for (const [id, [description, value]] of Object.entries(outputs))
      new CfnOutput(this, id, { description, value });
    return operators;
  }
}
