// infra -> the upload ingest service: the upload handlers in a container on Fargate behind a load
// balancer, for bodies API Gateway (10 MB) and Lambda (6 MB) cannot take. The load balancer is internal
// (subnets with no route out of the VPC, no public address): CloudFront reaches it through a VPC origin,
// over AWS's network, and its security group admits only CloudFront's origin-facing addresses (the
// managed prefix list). CloudFront also adds a secret header, which the load balancer and the container
// both check (a second lock, should the security group ever be widened). The secret is rotated every 30
// days by a function that changes the listener rule and CloudFront's header in step
// (workers/origin-secret-rotation.ts).
//
// What it costs at rest (README, "What it costs"; `npm run cost`): no NAT gateway and no interface
// endpoint. The tasks sit in public subnets with a public address of their own, used only to call AWS's
// APIs out (HTTPS); nothing reaches them but the load balancer, by their security group and by the subnets'
// network ACL. The sandbox's task runs on Fargate Spot; production keeps one task on demand and runs the
// rest on Spot, scaling out on CPU.
import { Duration, Stack } from 'aws-cdk-lib';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import {
  AclCidr,
  AclTraffic,
  Action,
  FlowLogDestination,
  FlowLogTrafficType,
  GatewayVpcEndpointAwsService,
  NetworkAcl,
  Peer,
  Port,
  SecurityGroup,
  SubnetType,
  TrafficDirection,
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

/**
 * One task's size. Memory does not grow with an upload (the body is streamed to S3 while hashed, and the
 * PDF is checked by byte ranges), so half a vCPU serves several at once; more come as more tasks.
 */
export const INGEST_TASK = { cpu: 512, memoryMiB: 1024 } as const;

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

    // No NAT gateway ($33 a month and $0.045 a GB): the tasks call AWS's APIs (ECR, logs, Secrets Manager,
    // KMS, Step Functions) from public subnets through the internet gateway, and S3 and DynamoDB through
    // (free) gateway endpoints, so the 100 MB bodies never leave AWS's network. The load balancer's subnets
    // ('app', named so before the tasks moved out) have no route out of the VPC at all.
    const vpc = new Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [
        { name: 'public', subnetType: SubnetType.PUBLIC, cidrMask: 24, mapPublicIpOnLaunch: false },
        { name: 'app', subnetType: SubnetType.PRIVATE_ISOLATED, cidrMask: 22 },
      ],
      gatewayEndpoints: {
        S3: { service: GatewayVpcEndpointAwsService.S3 },
        DynamoDB: { service: GatewayVpcEndpointAwsService.DYNAMODB },
      },
    });
    this.lockTaskSubnets(vpc);
    vpc.addFlowLog('FlowLogs', {
      trafficType: FlowLogTrafficType.REJECT,
      destination: FlowLogDestination.toCloudWatchLogs(
        new LogGroup(this, 'FlowLogGroup', { retention: RetentionDays.ONE_MONTH }),
      ),
    });
    const cluster = new Cluster(this, 'Cluster', {
      vpc,
      enableFargateCapacityProviders: true,
      containerInsightsV2: ContainerInsights.DISABLED,
    });
    acknowledge(
      cluster,
      'AwsSolutions-ECS4',
      'One service, whose CPU and memory are in the free AWS/ECS service metrics (its scaling reads them) and whose health is alarmed from its load balancer; Container Insights would add about 24 custom metrics ($7 a month a stage) for little more.',
    );

    this.originVerifySecret = new Secret(this, 'OriginVerify', {
      description: `contract-service ${resources.environment}: value of ${ORIGIN_VERIFY_HEADER} from CloudFront`,
      // The rotation draws its new values in the same shape.
      generateSecretString: { ...ORIGIN_SECRET_SHAPE },
    });

    const taskDefinition = new FargateTaskDefinition(this, 'Task', {
      cpu: INGEST_TASK.cpu,
      memoryLimitMiB: INGEST_TASK.memoryMiB,
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
      // Stopped (scale-in, a deployment, a Spot interruption), the task finishes the uploads under way
      // (bin/ingest.ts closes its server on SIGTERM) for up to Fargate's most, the two minutes of a Spot
      // interruption's notice, rather than the default 30 s.
      stopTimeout: Duration.seconds(120),
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

    // Security group: the load balancer in (added by `addTargets` below), HTTPS out, nothing else.
    const taskSecurityGroup = new SecurityGroup(this, 'TaskSecurityGroup', {
      vpc,
      description: 'ingest tasks: the load balancer in, HTTPS to AWS APIs out',
      allowAllOutbound: false,
    });
    taskSecurityGroup.addEgressRule(Peer.anyIpv4(), Port.tcp(443), 'AWS APIs over HTTPS');
    this.service = new FargateService(this, 'Service', {
      cluster,
      taskDefinition,
      desiredCount: production ? 2 : 1,
      // The sandbox's one task on Spot (an interruption: a new task within minutes, the upload retried).
      // Production: one task on demand always, the second and any scaled out on Spot.
      capacityProviderStrategies: production
        ? [
            { capacityProvider: 'FARGATE', base: 1, weight: 0 },
            { capacityProvider: 'FARGATE_SPOT', weight: 1 },
          ]
        : [{ capacityProvider: 'FARGATE_SPOT', weight: 1 }],
      minHealthyPercent: 100,
      circuitBreaker: { rollback: true },
      vpcSubnets: { subnetType: SubnetType.PUBLIC },
      assignPublicIp: true,
      securityGroups: [taskSecurityGroup],
      healthCheckGracePeriod: Duration.seconds(30),
    });
    const scaling = this.service.autoScaleTaskCount({
      minCapacity: production ? 2 : 1,
      maxCapacity: production ? 6 : 2,
    });
    scaling.scaleOnCpuUtilization('Cpu', {
      targetUtilizationPercent: 60,
      scaleOutCooldown: Duration.seconds(60),
      scaleInCooldown: Duration.minutes(5),
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
      vpcSubnets: { subnetType: SubnetType.PRIVATE_ISOLATED },
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
   * The tasks' subnets' network ACL, a lock beside their security group: the container port from within
   * the VPC only (the load balancer), replies to the tasks' own calls, and out only HTTPS and replies into
   * the VPC. (ACLs do not filter the VPC's DNS, time and metadata addresses.)
   */
  private lockTaskSubnets(vpc: Vpc): void {
    const acl = new NetworkAcl(this, 'TaskSubnetsAcl', {
      vpc,
      subnetSelection: { subnetType: SubnetType.PUBLIC },
    });
    const withinVpc = AclCidr.ipv4(vpc.vpcCidrBlock);
    const containerPort = AclTraffic.tcpPort(INGEST_PORT);
    const replyPorts = AclTraffic.tcpPortRange(1024, 65535);
    const { INGRESS, EGRESS } = TrafficDirection;
    // Entries are read in rule-number order: the container port is refused before replies are let in.
    acl.addEntry('ContainerPortFromVpc', {
      ruleNumber: 100,
      direction: INGRESS,
      cidr: withinVpc,
      traffic: containerPort,
      ruleAction: Action.ALLOW,
    });
    acl.addEntry('ContainerPortFromOutside', {
      ruleNumber: 110,
      direction: INGRESS,
      cidr: AclCidr.anyIpv4(),
      traffic: containerPort,
      ruleAction: Action.DENY,
    });
    acl.addEntry('Replies', {
      ruleNumber: 120,
      direction: INGRESS,
      cidr: AclCidr.anyIpv4(),
      traffic: replyPorts,
    });
    acl.addEntry('Https', {
      ruleNumber: 100,
      direction: EGRESS,
      cidr: AclCidr.anyIpv4(),
      traffic: AclTraffic.tcpPort(443),
    });
    acl.addEntry('RepliesIntoVpc', {
      ruleNumber: 110,
      direction: EGRESS,
      cidr: withinVpc,
      traffic: replyPorts,
    });
    acknowledgeFindings(
      acl,
      /AwsSolutions-VPC3/,
      'A second lock beside the tasks’ security group, for subnets with a route to the internet: five entries, written once here and tested (test/infra/upload-ingest.test.ts).',
    );
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
