// infra -> what an environment runs: the hosted pages' distribution, the contract pipeline (workers and
// state machines), webhook delivery (event bus, publisher, fan-out queue and consumer, and the delivery
// state machine), the re-drive of recorded
// runs, the HTTP API with a function per endpoint, the upload ingest service, the CloudFront
// distribution in front of both (which also serves the sign-up form's loader), and the sign-up form
// (its frame API and distribution). Safe to delete and redeploy.
import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import {
  AllowedMethods,
  type BehaviorOptions,
  CachePolicy,
  Distribution,
  HttpVersion,
  type IOrigin,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  OriginSslPolicy,
  PriceClass,
  ViewerProtocolPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, LoadBalancerV2Origin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import type { OnboardingAssets } from '../frontend/onboarding/build';
import { ROUTES } from '../lambdas/api/routes';
import type { RunKind } from '../lambdas/core/ports';
import { ContractPipeline } from './contract-pipeline';
import { HostedPages } from './hosted-pages';
import { addMcpServer } from './mcp-server';
import { OnboardingAcceptance } from './onboarding-acceptance';
import { LOADER_PATH, OnboardingFrame } from './onboarding-frame';
import { RunRedrive } from './run-redrive';
import { ServiceApi } from './service-api';
import type { ServiceFunction } from './service-function';
import { ORIGIN_VERIFY_HEADER, UploadIngest } from './upload-ingest';
import { WebhookDelivery } from './webhook-delivery';
import type { HostResources, ServiceResources } from './wiring';

export interface StatelessStackProps extends StackProps {
  readonly resources: ServiceResources;
  /** The sign-up form's files and loader (lib/onboarding-frame.ts). */
  readonly onboarding: OnboardingAssets;
}

/** CloudFront path patterns of the upload routes: `{id}` becomes `*`. */
export const UPLOAD_PATH_PATTERNS: readonly string[] = ROUTES.filter((route) => route.upload).map((route) =>
  route.path.replace(/\{[^}]+\}/g, '*'),
);

export class StatelessStack extends Stack {
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

  constructor(scope: Construct, id: string, props: StatelessStackProps) {
    super(scope, id, props);
    this.pages = new HostedPages(this, 'Pages', {
      environment: props.resources.environment,
      blobBucket: props.resources.blobBucket,
    });
    const resources: HostResources = { ...props.resources, pagesBaseUrl: this.pages.baseUrl };

    // No cycle: the state machines reference the workers, the hosts that start runs reference the state
    // machines, and no worker a state machine runs is told a state machine's ARN. Each host that starts
    // runs is told (and may start) exactly the kinds it starts: the uploads accept versions (contract
    // runs); the fan-out, the delivery consumer and the re-drive may start a delivery's wait (past the
    // delivery queue's 15 minutes); the re-drive starts whatever was recorded.
    this.pipeline = new ContractPipeline(this, 'Pipeline', resources);
    this.delivery = new WebhookDelivery(this, 'Webhooks', resources);
    this.acceptance = new OnboardingAcceptance(this, 'Acceptance', resources);
    this.stateMachines = {
      ...this.pipeline.stateMachines,
      delivery: this.delivery.stateMachine,
      acceptance: this.acceptance.stateMachine,
    };
    const contractRuns = { contract: this.stateMachines.contract };
    this.api = new ServiceApi(this, 'Api', resources, contractRuns);
    this.ingest = new UploadIngest(this, 'UploadIngest', resources, contractRuns);
    this.redrive = new RunRedrive(
      this,
      'Redrive',
      resources,
      this.stateMachines,
      this.delivery.deliveryQueue,
    ).function;
    // The MCP server, when context names the identity provider and the other environment (lib/mcp-server.ts).
    addMcpServer(this, {
      resources,
      httpApi: this.api.httpApi,
      deliveryQueue: this.delivery.deliveryQueue,
      deliveryStateMachine: this.delivery.stateMachine,
    });
    this.onboarding = new OnboardingFrame(this, 'Onboarding', {
      resources,
      stateMachines: { acceptance: this.stateMachines.acceptance },
      assets: props.onboarding,
    });

    // An API answers per caller: nothing is cached, and every header but Host reaches the origin
    // (with caching disabled this policy also forwards Authorization).
    const behaviour = (origin: IOrigin): BehaviorOptions => ({
      origin,
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      // Not a redirect: a client's POST would be replayed as a GET without its body.
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
    });
    const apiOrigin = new HttpOrigin(
      `${this.api.httpApi.apiId}.execute-api.${this.region}.${this.urlSuffix}`,
      {
        protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [OriginSslPolicy.TLS_V1_2],
      },
    );
    const ingestOrigin = new LoadBalancerV2Origin(this.ingest.loadBalancer, {
      protocolPolicy: OriginProtocolPolicy.HTTP_ONLY,
      customHeaders: { [ORIGIN_VERIFY_HEADER]: this.ingest.originVerifySecret.secretValue.unsafeUnwrap() },
      // The answer comes after the whole body is stored and checked (60 s is the most without a quota raise).
      readTimeout: Duration.seconds(60),
    });

    this.distribution = new Distribution(this, 'Front', {
      comment: `contract-service ${resources.environment}`,
      defaultBehavior: behaviour(apiOrigin),
      additionalBehaviors: Object.fromEntries([
        ...UPLOAD_PATH_PATTERNS.map((pattern) => [pattern, behaviour(ingestOrigin)]),
        [LOADER_PATH, this.onboarding.loaderBehaviour],
      ]),
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
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
      description: 'Frame API endpoint (also reachable directly; the frame calls it through its own address)',
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
    new CfnOutput(this, 'ApiUrl', {
      description: 'HTTP API endpoint (also reachable directly, without the upload ingest service)',
      value: this.api.httpApi.apiEndpoint,
    });
  }
}
