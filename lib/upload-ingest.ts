// infra -> the upload ingest service: the upload handlers in a container on Fargate behind a load
// balancer, for bodies API Gateway (10 MB) and Lambda (6 MB) cannot take. The load balancer is internal
// (private subnets, no public address): CloudFront reaches it through a VPC origin, over AWS's network,
// and its security group admits only CloudFront's origin-facing addresses (the managed prefix list).
// CloudFront also adds a secret header, which the load balancer and the container both check (a second
// lock, should the security group ever be widened). The secret is rotated every 30 days by a function
// that changes the listener rule and CloudFront's header in step (workers/origin-secret-rotation.ts).
import { Duration, Stack } from 'aws-cdk-lib';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import {
  FlowLogDestination,
  FlowLogTrafficType,
  GatewayVpcEndpointAwsService,
  Peer,
  Port,
  SecurityGroup,
  SubnetType,
  Vpc,
} from 'aws-cdk-lib/aws-ec2';
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
  ApplicationListenerRule,
  ApplicationLoadBalancer,
  ApplicationProtocol,
  type ApplicationTargetGroup,
  ListenerAction,
  ListenerCondition,
} from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { AccountPrincipal, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { AwsCustomResource, AwsCustomResourcePolicy, PhysicalResourceId } from 'aws-cdk-lib/custom-resources';
import { FactName } from 'aws-cdk-lib/region-info';
import { Construct } from 'constructs';
import { ORIGIN_SECRET_SHAPE } from '../lambdas/adapters/origin-secret-ports';
import { acknowledge, acknowledgeFindings, cdkSingleton } from './checks';
import { ORIGIN_VERIFY_HEADER, rotateOriginSecret } from './origin-secret-rotation';
import { PROJECT_ROOT } from './paths';
import type { ServiceFunction } from './service-function';
import {
  checksAccessTokens,
  connectService,
  endsReviewWaits,
  type HostResources,
  type ResourceUser,
  type StateMachines,
  UPLOAD_BLOBS,
  useSecret,
  useStateMachines,
} from './wiring';

/** The port the container listens on (`PORT`). */
export const INGEST_PORT = 8080;
/** The managed prefix list of CloudFront's origin-facing addresses (one per region, same name everywhere). */
export const CLOUDFRONT_ORIGIN_FACING = 'com.amazonaws.global.cloudfront.origin-facing';

/** Dockerfile of the image, relative to the build context (the repository root; see `.dockerignore`). */
export const INGEST_DOCKERFILE = 'ingest/Dockerfile';

/** The log bucket's folder of the load balancer's access logs. */
export const LOAD_BALANCER_LOG_PREFIX = 'ingest-load-balancer';

export class UploadIngest extends Construct {
  readonly loadBalancer: ApplicationLoadBalancer;
  readonly service: FargateService;
  /** The tasks behind the load balancer (their health is alarmed, lib/operations.ts). */
  readonly targetGroup: ApplicationTargetGroup;
  /** The load balancer's: CloudFront's origin-facing prefix list on port 80, nothing else. */
  readonly securityGroup: SecurityGroup;
  /** The value CloudFront must send in `x-origin-verify`. */
  readonly originVerifySecret: Secret;
  /** The listener rule that forwards to the tasks only the requests carrying the secret header. */
  readonly ingestRule: ApplicationListenerRule;

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
    vpc.addFlowLog('FlowLogs', {
      trafficType: FlowLogTrafficType.REJECT,
      destination: FlowLogDestination.toCloudWatchLogs(
        new LogGroup(this, 'FlowLogGroup', { retention: RetentionDays.ONE_MONTH }),
      ),
    });
    const cluster = new Cluster(this, 'Cluster', { vpc, containerInsightsV2: ContainerInsights.ENABLED });

    this.originVerifySecret = new Secret(this, 'OriginVerify', {
      description: `contract-service ${resources.environment}: value of ${ORIGIN_VERIFY_HEADER} from CloudFront`,
      // The rotation draws its new values in the same shape.
      generateSecretString: { ...ORIGIN_SECRET_SHAPE },
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
    acknowledge(
      taskDefinition,
      'AwsSolutions-ECS2',
      'The environment holds settings and ARNs only (table, bucket, state machine, secret ARNs); every secret value is read from Secrets Manager by the task role.',
    );
    acknowledgeFindings(
      taskDefinition,
      /AwsSolutions-IAM5\[Resource::\*\]/,
      'ecr:GetAuthorizationToken (pulling the image) and X-Ray take no resource.',
    );
    const user: ResourceUser = {
      addEnvironment: (key, value) => container.addEnvironment(key, value),
      grantPrincipal: taskDefinition.taskRole,
    };
    // It serves whatever CloudFront routes to it: the two uploads and `GET /v1/contract-reviews`; an
    // accepted upload starts its contract run.
    connectService(user, resources, { table: 'endpoint', blobs: UPLOAD_BLOBS });
    checksAccessTokens(user, resources);
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

    // The prefix list's id differs per region: looked up when the stack deploys (no account needed to synth).
    const prefixList = new AwsCustomResource(this, 'CloudFrontPrefixList', {
      onUpdate: {
        service: 'EC2',
        action: 'describeManagedPrefixLists',
        parameters: { Filters: [{ Name: 'prefix-list-name', Values: [CLOUDFRONT_ORIGIN_FACING] }] },
        physicalResourceId: PhysicalResourceId.of(CLOUDFRONT_ORIGIN_FACING),
        outputPaths: ['PrefixLists.0.PrefixListId'],
      },
      policy: AwsCustomResourcePolicy.fromSdkCalls({ resources: AwsCustomResourcePolicy.ANY_RESOURCE }),
      installLatestAwsSdk: false,
    });
    acknowledgeFindings(
      prefixList,
      /AwsSolutions-IAM5\[Resource::\*\]/,
      'ec2:DescribeManagedPrefixLists takes no resource; the lookup reads one public prefix list.',
    );
    acknowledge(
      cdkSingleton(this, 'AWS679f53fac002430cb0da5b7982bd2287'),
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      'CDK’s custom resource function: Lambda’s basic execution policy writes its log lines only.',
    );
    this.securityGroup = new SecurityGroup(this, 'LoadBalancerSecurityGroup', {
      vpc,
      description: 'ingest load balancer: CloudFront origin-facing addresses only',
      allowAllOutbound: false,
    });
    this.securityGroup.addIngressRule(
      Peer.prefixList(prefixList.getResponseField('PrefixLists.0.PrefixListId')),
      Port.tcp(80),
      'CloudFront (VPC origin)',
    );
    this.loadBalancer = new ApplicationLoadBalancer(this, 'LoadBalancer', {
      vpc,
      internetFacing: false,
      vpcSubnets: { subnetType: SubnetType.PRIVATE_WITH_EGRESS },
      securityGroup: this.securityGroup,
      dropInvalidHeaderFields: true,
      // A 100 MB body from a slow client, then hashing and the PDF check, must not be cut off.
      idleTimeout: Duration.seconds(120),
    });
    this.logAccessLogs(resources);
    // HTTP inside the VPC: CloudFront's VPC origin carries the request over AWS's network to a load
    // balancer with no public address. Requests without the secret header never reach a task. The
    // header's value is a dynamic reference (`{{resolve:secretsmanager:…}}`), which CloudFormation
    // resolves to the current value whenever it updates the rule or the distribution, so a deployment
    // after a rotation sets the rotated value, never the one first deployed.
    const listener = this.loadBalancer.addListener('Http', {
      protocol: ApplicationProtocol.HTTP,
      port: 80,
      open: false,
      defaultAction: ListenerAction.fixedResponse(403, {
        contentType: 'text/plain',
        messageBody: 'Forbidden',
      }),
    });
    this.targetGroup = listener.addTargets('Ingest', {
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
    const rule = listener.node.findChild('IngestRule');
    if (!(rule instanceof ApplicationListenerRule)) throw new Error('the ingest listener rule is missing');
    this.ingestRule = rule;
  }

  /**
   * Rotates the origin secret every 30 days (lib/origin-secret-rotation.ts): the listener rule and every
   * distribution sending it (the API's, and without a hosted zone the frame's: lib/origin-protection.ts).
   */
  rotateOriginSecret(distributions: readonly Distribution[]): ServiceFunction {
    return rotateOriginSecret(this, 'RotateOriginSecret', {
      secret: this.originVerifySecret,
      distributions,
      rule: this.ingestRule,
      owner: 'upload ingest',
    });
  }

  /**
   * The load balancer's access logs to the log bucket. By hand rather than `logAccessLogs`, which needs
   * the region at synthesis: the Elastic Load Balancing account that writes them is the region's, read
   * from CDK's table of regional facts at deployment.
   */
  private logAccessLogs(resources: HostResources): void {
    const stack = Stack.of(this);
    const policy = resources.logBucket.addToResourcePolicy(
      new PolicyStatement({
        actions: ['s3:PutObject'],
        principals: [new AccountPrincipal(stack.regionalFact(FactName.ELBV2_ACCOUNT))],
        resources: [
          resources.logBucket.arnForObjects(`${LOAD_BALANCER_LOG_PREFIX}/AWSLogs/${stack.account}/*`),
        ],
      }),
    );
    this.loadBalancer.setAttribute('access_logs.s3.enabled', 'true');
    this.loadBalancer.setAttribute('access_logs.s3.bucket', resources.logBucket.bucketName);
    this.loadBalancer.setAttribute('access_logs.s3.prefix', LOAD_BALANCER_LOG_PREFIX);
    // The load balancer checks it may write there when the attribute is set.
    if (policy.policyDependable) this.loadBalancer.node.addDependency(policy.policyDependable);
  }
}
