// infra -> the upload ingest service: the upload handlers in a container on Fargate behind a load
// balancer, for bodies API Gateway (10 MB) and Lambda (6 MB) cannot take. CloudFront is its only
// intended caller: it adds a secret header, which the load balancer and the container both check.
import { Duration, Stack } from 'aws-cdk-lib';
import { GatewayVpcEndpointAwsService, SubnetType, Vpc } from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import {
  Cluster,
  ContainerImage,
  ContainerInsights,
  CpuArchitecture,
  FargateService,
  FargateTaskDefinition,
  LogDrivers,
  OperatingSystemFamily,
} from 'aws-cdk-lib/aws-ecs';
import {
  ApplicationLoadBalancer,
  ApplicationProtocol,
  ListenerAction,
  ListenerCondition,
} from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { PROJECT_ROOT } from './paths';
import {
  connectService,
  endsReviewWaits,
  type HostResources,
  type ResourceUser,
  type StateMachines,
  useSecret,
  useStateMachines,
} from './wiring';

/** Header CloudFront adds to every request it forwards to the ingest service (lower case, as Node sees it). */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';
/** The port the container listens on (`PORT`). */
export const INGEST_PORT = 8080;
/** Dockerfile of the image, relative to the build context (the repository root; see `.dockerignore`). */
export const INGEST_DOCKERFILE = 'ingest/Dockerfile';

export class UploadIngest extends Construct {
  readonly loadBalancer: ApplicationLoadBalancer;
  readonly service: FargateService;
  /** The value CloudFront must send in `x-origin-verify`. */
  readonly originVerifySecret: Secret;

  constructor(scope: Construct, id: string, resources: HostResources, stateMachines: StateMachines) {
    super(scope, id);
    const production = resources.environment === 'production';

    // Tasks run in private subnets; S3 and DynamoDB are reached through (free) gateway endpoints, so
    // the 100 MB bodies never pass the NAT gateway, which is left for Secrets Manager, ECR and logs.
    const vpc = new Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 1,
      subnetConfiguration: [
        { name: 'public', subnetType: SubnetType.PUBLIC, cidrMask: 24 },
        { name: 'app', subnetType: SubnetType.PRIVATE_WITH_EGRESS, cidrMask: 22 },
      ],
      gatewayEndpoints: {
        S3: { service: GatewayVpcEndpointAwsService.S3 },
        DynamoDB: { service: GatewayVpcEndpointAwsService.DYNAMODB },
      },
    });
    const cluster = new Cluster(this, 'Cluster', { vpc, containerInsightsV2: ContainerInsights.ENABLED });

    this.originVerifySecret = new Secret(this, 'OriginVerify', {
      description: `contract-service ${resources.environment}: value of ${ORIGIN_VERIFY_HEADER} from CloudFront`,
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });

    const taskDefinition = new FargateTaskDefinition(this, 'Task', {
      cpu: 1024,
      memoryLimitMiB: 2048,
      runtimePlatform: {
        cpuArchitecture: CpuArchitecture.ARM64,
        operatingSystemFamily: OperatingSystemFamily.LINUX,
      },
    });
    const container = taskDefinition.addContainer('ingest', {
      // Built by `cdk deploy` only; synth just stages the context (no Docker needed).
      image: ContainerImage.fromAsset(PROJECT_ROOT, {
        file: INGEST_DOCKERFILE,
        platform: Platform.LINUX_ARM64,
      }),
      portMappings: [{ containerPort: INGEST_PORT }],
      // Lambda sets AWS_REGION itself; on Fargate it is set here so the composition root finds it either way.
      environment: { PORT: String(INGEST_PORT), ORIGIN_VERIFY_HEADER, AWS_REGION: Stack.of(this).region },
      logging: LogDrivers.awsLogs({
        streamPrefix: 'ingest',
        logGroup: new LogGroup(this, 'Logs', { retention: RetentionDays.ONE_MONTH }),
      }),
    });
    const user: ResourceUser = {
      addEnvironment: (key, value) => container.addEnvironment(key, value),
      grantPrincipal: taskDefinition.taskRole,
    };
    // It serves whatever CloudFront routes to it: the two uploads and `GET /v1/contract-reviews`; an
    // accepted upload starts its contract run.
    connectService(user, resources, 'read-put');
    useStateMachines(user, stateMachines);
    endsReviewWaits(user, stateMachines);
    useSecret(user, 'ORIGIN_VERIFY_SECRET_ARN', this.originVerifySecret);

    this.service = new FargateService(this, 'Service', {
      cluster,
      taskDefinition,
      desiredCount: production ? 2 : 1,
      minHealthyPercent: 100,
      circuitBreaker: { rollback: true },
      vpcSubnets: { subnetType: SubnetType.PRIVATE_WITH_EGRESS },
      healthCheckGracePeriod: Duration.seconds(30),
    });

    this.loadBalancer = new ApplicationLoadBalancer(this, 'LoadBalancer', {
      vpc,
      internetFacing: true,
      dropInvalidHeaderFields: true,
      // A 100 MB body from a slow client, then hashing and the PDF check, must not be cut off.
      idleTimeout: Duration.seconds(120),
    });
    // Plain HTTP: without a domain there is no certificate for the origin (see the report). Requests
    // without the secret header never reach a task.
    const listener = this.loadBalancer.addListener('Http', {
      protocol: ApplicationProtocol.HTTP,
      port: 80,
      open: true,
      defaultAction: ListenerAction.fixedResponse(403, {
        contentType: 'text/plain',
        messageBody: 'Forbidden',
      }),
    });
    listener.addTargets('Ingest', {
      priority: 1,
      conditions: [
        ListenerCondition.httpHeader(ORIGIN_VERIFY_HEADER, [
          this.originVerifySecret.secretValue.unsafeUnwrap(),
        ]),
      ],
      protocol: ApplicationProtocol.HTTP,
      port: INGEST_PORT,
      targets: [this.service],
      healthCheck: { path: '/healthz', healthyHttpCodes: '200', interval: Duration.seconds(15) },
      deregistrationDelay: Duration.seconds(60),
    });
  }
}
