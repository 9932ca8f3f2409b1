// infra -> what the deployment costs a month while no contract is sent (issue 29 item 5), counted from the
// synthesised templates: every resource billed by the hour or the month, priced at us-east-1 list prices.
// What is billed per use (requests, GB, invocations, MAU, storage) is left out: idle, it is cents.
import type { SynthesisedTemplate, TemplateJson, TemplateResource } from './template-checks';

const HOURS_A_MONTH = 730;

/**
 * us-east-1 on-demand list prices, November 2026, from AWS's pricing pages: aws.amazon.com/vpc/pricing
 * (NAT gateway, public IPv4, interface endpoints), /fargate/pricing, /elasticloadbalancing/pricing,
 * /waf/pricing, /cloudwatch/pricing, /kms/pricing, /secrets-manager/pricing.
 */
export const PRICES = {
  natGatewayHour: 0.045,
  publicIpv4Hour: 0.005,
  interfaceEndpointHourPerZone: 0.01,
  applicationLoadBalancerHour: 0.0225,
  fargateArm: { vcpuHour: 0.03238, gbHour: 0.00356 },
  fargateX86: { vcpuHour: 0.04048, gbHour: 0.004445 },
  /** Fargate Spot varies with spare capacity ("up to 70% off"): assumed 30% of on-demand. */
  fargateSpotShare: 0.3,
  webAclMonth: 5,
  webAclRuleMonth: 1,
  alarmMetricMonth: 0.1,
  dashboardMonth: 3,
  kmsKeyMonth: 1,
  secretMonth: 0.4,
  customMetricMonth: 0.3,
  /** Container Insights (standard) on one service: its cluster's, service's and task family's metrics. */
  containerInsightsMetrics: 24,
} as const;

export interface LineItem {
  readonly part: string;
  readonly count: number;
  readonly month: number;
}

/** The groups the README's table has: each stage's stacks, and the identity stacks. */
export const costGroupOf = (stackName: string): string => {
  const match = /^contract-service-(sandbox|production|identity)/.exec(stackName);
  return match?.[1] ?? stackName;
};

type Resources = Record<string, TemplateResource>;

const refTo = (value: unknown): string | undefined =>
  typeof value === 'object' && value !== null && 'Ref' in value ? String(value.Ref) : undefined;

const ofType = (resources: Resources, type: string): [string, TemplateResource][] =>
  Object.entries(resources).filter(([, resource]) => resource.Type === type);

interface Tasks {
  readonly onDemand: number;
  readonly spot: number;
}

/** How ECS places a service's tasks: each provider's base first, the rest by weight. */
const tasksOf = (service: TemplateResource): Tasks => {
  const desired = Number(service.Properties?.DesiredCount ?? 1);
  const strategy = service.Properties?.CapacityProviderStrategy as
    | { CapacityProvider: string; Base?: number; Weight?: number }[]
    | undefined;
  if (!strategy) return { onDemand: desired, spot: 0 };
  const spot = (provider: string) => provider === 'FARGATE_SPOT';
  const bases = strategy.map((item) => Math.min(item.Base ?? 0, desired));
  const rest = desired - bases.reduce((sum, base) => sum + base, 0);
  const weights = strategy.reduce((sum, item) => sum + (item.Weight ?? 0), 0);
  let spotTasks = strategy.reduce(
    (sum, item, index) => sum + (spot(item.CapacityProvider) ? (bases[index] ?? 0) : 0),
    0,
  );
  const spotWeight = strategy.reduce(
    (sum, item) => sum + (spot(item.CapacityProvider) ? (item.Weight ?? 0) : 0),
    0,
  );
  if (weights > 0) spotTasks += Math.round((rest * spotWeight) / weights);
  return { onDemand: desired - spotTasks, spot: spotTasks };
};

const fargateHour = (task: TemplateResource | undefined): number => {
  const arm = (task?.Properties?.RuntimePlatform as { CpuArchitecture?: string } | undefined)
    ?.CpuArchitecture;
  const rates = arm === 'ARM64' ? PRICES.fargateArm : PRICES.fargateX86;
  const vcpu = Number(task?.Properties?.Cpu ?? 0) / 1024;
  const gb = Number(task?.Properties?.Memory ?? 0) / 1024;
  return vcpu * rates.vcpuHour + gb * rates.gbHour;
};

/** An alarm is billed per metric it reads (a metric-math expression itself is free). */
const alarmMetrics = (alarm: TemplateResource): number => {
  const metrics = alarm.Properties?.Metrics as { MetricStat?: unknown }[] | undefined;
  return metrics ? metrics.filter((metric) => metric.MetricStat).length : 1;
};

/** The month's price of one template's resources that are billed while idle. */
export const templateCostAtRest = (template: TemplateJson): LineItem[] => {
  const resources: Resources = template.Resources ?? {};
  const items: LineItem[] = [];
  const add = (part: string, count: number, month: number) => {
    if (count > 0) items.push({ part, count, month });
  };

  add('NAT gateway', ofType(resources, 'AWS::EC2::NatGateway').length, PRICES.natGatewayHour * HOURS_A_MONTH);
  const endpointZones = ofType(resources, 'AWS::EC2::VPCEndpoint')
    .filter(([, endpoint]) => endpoint.Properties?.VpcEndpointType === 'Interface')
    .reduce((sum, [, endpoint]) => sum + ((endpoint.Properties?.SubnetIds as unknown[]) ?? []).length, 0);
  add(
    'VPC interface endpoint (per zone)',
    endpointZones,
    PRICES.interfaceEndpointHourPerZone * HOURS_A_MONTH,
  );
  const balancers = ofType(resources, 'AWS::ElasticLoadBalancingV2::LoadBalancer').filter(
    ([, balancer]) => (balancer.Properties?.Type ?? 'application') === 'application',
  );
  add('Application load balancer', balancers.length, PRICES.applicationLoadBalancerHour * HOURS_A_MONTH);

  let publicAddresses = ofType(resources, 'AWS::EC2::EIP').length;
  for (const [, service] of ofType(resources, 'AWS::ECS::Service')) {
    const taskId = refTo(service.Properties?.TaskDefinition);
    const hour = fargateHour(taskId ? resources[taskId] : undefined);
    const tasks = tasksOf(service);
    add('Fargate task, on demand', tasks.onDemand, hour * HOURS_A_MONTH);
    add('Fargate task, Spot', tasks.spot, hour * PRICES.fargateSpotShare * HOURS_A_MONTH);
    const network = service.Properties?.NetworkConfiguration as
      | { AwsvpcConfiguration?: { AssignPublicIp?: string } }
      | undefined;
    if (network?.AwsvpcConfiguration?.AssignPublicIp === 'ENABLED')
      publicAddresses += tasks.onDemand + tasks.spot;
  }
  add('Public IPv4 address', publicAddresses, PRICES.publicIpv4Hour * HOURS_A_MONTH);
  const insights = ofType(resources, 'AWS::ECS::Cluster').filter(([, cluster]) =>
    ((cluster.Properties?.ClusterSettings as { Value?: string }[] | undefined) ?? []).some(
      (setting) => setting.Value === 'enabled' || setting.Value === 'enhanced',
    ),
  );
  add(
    'Container Insights (about 24 metrics)',
    insights.length,
    PRICES.containerInsightsMetrics * PRICES.customMetricMonth,
  );

  for (const [, acl] of ofType(resources, 'AWS::WAFv2::WebACL'))
    add(
      `WAF web ACL and its ${((acl.Properties?.Rules as unknown[]) ?? []).length} rules`,
      1,
      PRICES.webAclMonth + ((acl.Properties?.Rules as unknown[]) ?? []).length * PRICES.webAclRuleMonth,
    );
  const alarmMetricCount = ofType(resources, 'AWS::CloudWatch::Alarm').reduce(
    (sum, [, alarm]) => sum + alarmMetrics(alarm),
    0,
  );
  // Target tracking makes two alarms of its own (high and low), outside the template.
  const trackingAlarms =
    2 *
    ofType(resources, 'AWS::ApplicationAutoScaling::ScalingPolicy').filter(
      ([, policy]) => policy.Properties?.PolicyType === 'TargetTrackingScaling',
    ).length;
  add('CloudWatch alarm metric', alarmMetricCount + trackingAlarms, PRICES.alarmMetricMonth);
  add('CloudWatch dashboard', ofType(resources, 'AWS::CloudWatch::Dashboard').length, PRICES.dashboardMonth);
  add('KMS key', ofType(resources, 'AWS::KMS::Key').length, PRICES.kmsKeyMonth);
  add('Secrets Manager secret', ofType(resources, 'AWS::SecretsManager::Secret').length, PRICES.secretMonth);
  return items;
};

/** Line items summed by part. */
const merged = (items: readonly LineItem[]): LineItem[] => {
  const byPart = new Map<string, LineItem>();
  for (const item of items) {
    const seen = byPart.get(item.part);
    byPart.set(item.part, seen ? { ...seen, count: seen.count + item.count } : item);
  }
  return [...byPart.values()];
};

export const monthOf = (items: readonly LineItem[]): number =>
  items.reduce((sum, item) => sum + item.count * item.month, 0);

/** Each group's line items (sandbox, production, identity), from every template of the app. */
export const costAtRest = (templates: readonly SynthesisedTemplate[]): Map<string, LineItem[]> => {
  const groups = new Map<string, LineItem[]>();
  for (const { name, template } of templates) {
    const group = costGroupOf(name);
    groups.set(group, [...(groups.get(group) ?? []), ...templateCostAtRest(template)]);
  }
  return new Map([...groups].map(([group, items]) => [group, merged(items)]));
};

const dollars = (amount: number): string => `$${amount.toFixed(2)}`;

/** The Markdown table the README shows: a row per part and group, and each group's total. */
export const costTable = (groups: Map<string, LineItem[]>): string[] => {
  const lines = ['| group | part | count | a month |', '|---|---|---|---|'];
  let total = 0;
  for (const [group, items] of groups) {
    for (const item of items)
      lines.push(`| ${group} | ${item.part} | ${item.count} | ${dollars(item.count * item.month)} |`);
    lines.push(`| **${group}** | **total** | | **${dollars(monthOf(items))}** |`);
    total += monthOf(items);
  }
  lines.push(`| **all** | **total** | | **${dollars(total)}** |`);
  return lines;
};
