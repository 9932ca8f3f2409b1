// infra -> the upload ingest's network and compute at rest (issue 29 item 5): no NAT gateway and no
// interface endpoint (the tasks reach AWS's APIs from public subnets through the internet gateway, S3 and
// DynamoDB through the free gateway endpoints), the load balancer in subnets with no route out, the tasks
// admitting only the load balancer (security group and subnet ACL both), sandbox tasks on Fargate Spot and
// production's on demand for one task and Spot beyond it, scaling out on CPU. Synthesised without bundling.
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { costAtRest, type LineItem } from '../../lib/cost-at-rest';
import { INGEST_PORT } from '../../lib/upload-ingest';
import {
  type Resource,
  resources,
  SYNTH_DEADLINE_MS,
  type SynthesisedApp,
  synthServiceApp,
  templateOf,
} from './synth';

let synthesised: SynthesisedApp;
beforeAll(async () => {
  synthesised = await synthServiceApp({ bundle: 'none' });
}, SYNTH_DEADLINE_MS);
afterAll(() => synthesised?.cleanUp());

const allTemplates = () =>
  synthesised.assembly.stacksRecursively.map((stack) => ({
    name: stack.stackName,
    template: stack.template as { Resources?: Record<string, Resource> },
  }));

const ofType = (template: Template, type: string): [string, Resource][] =>
  Object.entries(resources(template)).filter(([, resource]) => resource.Type === type);

describe.each(['sandbox', 'production'] as const)('the %s ingest', (environment) => {
  let template: Template;
  beforeAll(() => {
    template = templateOf(synthesised.stages[environment].stateless);
  });

  it('has no NAT gateway, no elastic address and no interface endpoint; S3 and DynamoDB through gateway endpoints', () => {
    template.resourceCountIs('AWS::EC2::NatGateway', 0);
    template.resourceCountIs('AWS::EC2::EIP', 0);
    const endpoints = ofType(template, 'AWS::EC2::VPCEndpoint').map(([, endpoint]) => endpoint.Properties);
    expect(endpoints.map((endpoint) => endpoint?.VpcEndpointType)).toEqual(['Gateway', 'Gateway']);
    expect(JSON.stringify(endpoints)).toMatch(/\.s3"/);
    expect(JSON.stringify(endpoints)).toMatch(/\.dynamodb"/);
  });

  it('puts the load balancer in subnets with no route out of the VPC, and the tasks in subnets routed to the internet gateway', () => {
    const ingest = synthesised.stages[environment].stateless.ingest;
    const stack = synthesised.stages[environment].stateless;
    const routes = ofType(template, 'AWS::EC2::Route').map(([, route]) => route.Properties ?? {});
    const associations = ofType(template, 'AWS::EC2::SubnetRouteTableAssociation').map(
      ([, association]) => association.Properties ?? {},
    );
    const routeTableOf = (subnet: unknown) =>
      JSON.stringify(
        associations.find((association) => JSON.stringify(association.SubnetId) === JSON.stringify(subnet))
          ?.RouteTableId,
      );
    const routesOutOf = (subnet: unknown) =>
      routes.filter(
        (route) =>
          JSON.stringify(route.RouteTableId) === routeTableOf(subnet) &&
          route.DestinationCidrBlock === '0.0.0.0/0',
      );

    const balancer = resources(template)[stack.getLogicalId(ingest.loadBalancer.node.defaultChild as never)];
    const balancerSubnets = balancer?.Properties?.Subnets as unknown[];
    expect(balancerSubnets).toHaveLength(2);
    for (const subnet of balancerSubnets) expect(routesOutOf(subnet)).toEqual([]);

    const [[, service] = ['', undefined]] = ofType(template, 'AWS::ECS::Service');
    const network =
      (
        service?.Properties?.NetworkConfiguration as
          | { AwsvpcConfiguration?: Record<string, unknown> }
          | undefined
      )?.AwsvpcConfiguration ?? {};
    expect(network.AssignPublicIp).toBe('ENABLED');
    const taskSubnets = network.Subnets as unknown[];
    expect(taskSubnets).toHaveLength(2);
    for (const subnet of taskSubnets)
      expect(routesOutOf(subnet)).toEqual([expect.objectContaining({ GatewayId: expect.anything() })]);
  });

  it('lets the tasks be reached only from the load balancer on the container port, and call out only on 443', () => {
    const stack = synthesised.stages[environment].stateless;
    const ingest = stack.ingest;
    const taskGroups = ingest.service.connections.securityGroups.map((group) =>
      stack.resolve(group.securityGroupId),
    );
    expect(taskGroups).toHaveLength(1);
    const [taskGroup] = taskGroups;
    const [, taskGroupResource] =
      Object.entries(resources(template)).find(
        ([id]) => JSON.stringify({ 'Fn::GetAtt': [id, 'GroupId'] }) === JSON.stringify(taskGroup),
      ) ?? [];
    const ingress = [
      ...((taskGroupResource?.Properties?.SecurityGroupIngress as Record<string, unknown>[] | undefined) ??
        []),
      ...ofType(template, 'AWS::EC2::SecurityGroupIngress')
        .map(([, rule]) => rule.Properties ?? {})
        .filter((rule) => JSON.stringify(rule.GroupId) === JSON.stringify(taskGroup)),
    ];
    expect(ingress).toEqual([
      expect.objectContaining({
        IpProtocol: 'tcp',
        FromPort: INGEST_PORT,
        ToPort: INGEST_PORT,
        SourceSecurityGroupId: stack.resolve(ingest.securityGroup.securityGroupId),
      }),
    ]);
    const egress = [
      ...((taskGroupResource?.Properties?.SecurityGroupEgress as Record<string, unknown>[] | undefined) ??
        []),
      ...ofType(template, 'AWS::EC2::SecurityGroupEgress')
        .map(([, rule]) => rule.Properties ?? {})
        .filter((rule) => JSON.stringify(rule.GroupId) === JSON.stringify(taskGroup)),
    ];
    expect(egress).toEqual([
      expect.objectContaining({ IpProtocol: 'tcp', FromPort: 443, ToPort: 443, CidrIp: '0.0.0.0/0' }),
    ]);
  });

  it('refuses, at the tasks’ subnets, the container port from outside the VPC (a second lock beside the security group)', () => {
    const acls = ofType(template, 'AWS::EC2::NetworkAcl');
    expect(acls).toHaveLength(1);
    const entries = ofType(template, 'AWS::EC2::NetworkAclEntry').map(([, entry]) => entry.Properties ?? {});
    const inbound = entries
      .filter((entry) => entry.Egress !== true)
      .sort((a, b) => Number(a.RuleNumber) - Number(b.RuleNumber));
    const portFrom = (entry: Record<string, unknown>) =>
      (entry.PortRange as { From: number; To: number } | undefined)?.From;
    // The first inbound entry covering the container port from anywhere denies it; only the VPC's own range comes before.
    const first = inbound.find(
      (entry) => entry.CidrBlock === '0.0.0.0/0' && Number(portFrom(entry)) <= INGEST_PORT,
    );
    expect(first).toMatchObject({ RuleAction: 'deny', PortRange: { From: INGEST_PORT, To: INGEST_PORT } });
    const [[, association] = ['', undefined], ...others] = ofType(
      template,
      'AWS::EC2::SubnetNetworkAclAssociation',
    );
    expect(others).toHaveLength(1);
    expect(association?.Properties?.NetworkAclId).toEqual({ Ref: acls[0]?.[0] });
  });

  it(
    environment === 'sandbox'
      ? 'runs its one task on Fargate Spot'
      : 'keeps one task on demand and a second on Spot, both always running',
    () => {
      const [[, service] = ['', undefined]] = ofType(template, 'AWS::ECS::Service');
      expect(service?.Properties?.LaunchType).toBeUndefined();
      expect(service?.Properties?.CapacityProviderStrategy).toEqual(
        environment === 'sandbox'
          ? [{ CapacityProvider: 'FARGATE_SPOT', Weight: 1 }]
          : [
              { CapacityProvider: 'FARGATE', Base: 1, Weight: 0 },
              { CapacityProvider: 'FARGATE_SPOT', Weight: 1 },
            ],
      );
      expect(service?.Properties?.DesiredCount).toBe(environment === 'sandbox' ? 1 : 2);
      template.hasResourceProperties('AWS::ECS::ClusterCapacityProviderAssociations', {
        CapacityProviders: Match.arrayWith(['FARGATE', 'FARGATE_SPOT']),
      });
    },
  );

  it('scales out on CPU, on Spot, from its tasks at rest', () => {
    template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalableTarget', {
      MinCapacity: environment === 'sandbox' ? 1 : 2,
      MaxCapacity: environment === 'sandbox' ? 2 : 6,
    });
    template.hasResourceProperties('AWS::ApplicationAutoScaling::ScalingPolicy', {
      PolicyType: 'TargetTrackingScaling',
      TargetTrackingScalingPolicyConfiguration: Match.objectLike({
        PredefinedMetricSpecification: { PredefinedMetricType: 'ECSServiceAverageCPUUtilization' },
      }),
    });
  });
});

describe('the cost at rest (lib/cost-at-rest.ts) counted from the templates', () => {
  const parts = (items: readonly LineItem[] | undefined) => (items ?? []).map((item) => item.part);

  it('has no NAT gateway or interface endpoint in any stage, no on-demand task in the sandbox, one in production', () => {
    const groups = costAtRest(allTemplates());
    expect([...groups.keys()].sort()).toEqual(['production', 'sandbox']);
    for (const items of groups.values()) {
      expect(parts(items)).not.toContain('NAT gateway');
      expect(parts(items)).not.toContain('VPC interface endpoint (per zone)');
    }
    expect(parts(groups.get('sandbox'))).toEqual(expect.arrayContaining(['Fargate task, Spot']));
    expect(parts(groups.get('sandbox'))).not.toContain('Fargate task, on demand');
    // Production's two tasks: one on demand, one on Spot, each with its public address.
    expect(groups.get('production')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ part: 'Fargate task, on demand', count: 1 }),
        expect.objectContaining({ part: 'Fargate task, Spot', count: 1 }),
        expect.objectContaining({ part: 'Public IPv4 address', count: 2 }),
      ]),
    );
  });
});
