// infra -> what makes the deployment fit to run (issue 15): cdk-nag's AwsSolutions pack passes over both
// stages (pinned and environment-agnostic) with every acknowledgement scoped, every workflow file passes
// asl-validator, and the templates hold the edges and the least privilege the checks cannot see. Synthesised
// without bundling (the function code is no part of any assertion here), so each synthesis takes seconds.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import aslValidator from 'asl-validator';
import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { GLOBAL_INDEXES } from '../../lambdas/adapters/dynamodb/table-schema';
import { MAX_UPLOAD_BODY_BYTES } from '../../lambdas/api/upload/read-upload';
import { artifacts } from '../../lambdas/core/contracts/artifacts';
import { PUBLICATION_CHECK_LINE } from '../../lambdas/core/contracts/publication-promise';
import { publicationKey } from '../../lambdas/core/publications';
import { acknowledgeFindings, addChecks } from '../../lib/checks';
import { CLOUDFRONT_REGION, EdgeStack } from '../../lib/edge-stack';
import { type Environment, stageSettingsFromContext } from '../../lib/environments';
import { apiOriginName } from '../../lib/http-api-origin';
import {
  API_5XX_PERCENT,
  API_P99_ALARM,
  ERROR_LINES_METRIC,
  LATE_PUBLICATIONS_METRIC,
  WEBHOOKS_GIVEN_UP_METRIC,
} from '../../lib/operations';
import { fromRoot } from '../../lib/paths';
import { API_THROTTLE } from '../../lib/service-api';
import { addServiceStages } from '../../lib/service-app';
import { ServiceFunction } from '../../lib/service-function';
import type { ServiceStage } from '../../lib/service-stage';
import { MANAGED_RULE_GROUPS, REQUESTS_PER_ADDRESS } from '../../lib/web-acl-rules';
import { BLOB_PREFIXES, TABLE_ACTIONS } from '../../lib/wiring';
import { WORKFLOW_FILES } from '../../lib/workflow-state-machine';
import {
  actionsOf,
  cdkJsonContext,
  flattenedTemplate,
  logicalIdOf,
  onboardingAssets,
  type PolicyStatement,
  resources,
  SYNTH_DEADLINE_MS,
  synthServiceApp,
} from './synth';
import { testApp } from './test-app';
import { judge, type ManagedMatch, type WafRequest, webAclOf } from './web-acl';

const ACCOUNT = '111111111111';

/** `items`, failing when there are none: a check made for each of no items would prove nothing. */
const each = <T>(items: Iterable<T>): T[] => {
  const list = [...items];
  expect(list.length).toBeGreaterThan(0);
  return list;
};
/** Sandbox pinned to London (the web ACL read across regions), production to us-east-1 (no crossing). */
const DOMAINS = {
  api: 'sandbox.api.example.com',
  pages: 'pages.sandbox.example.com',
  frame: 'form.sandbox.example.com',
  hostedZone: { id: 'Z0123456789ABCDEFGHIJ', name: 'example.com' },
};
/** Sandbox with domains in a hosted zone and an alarm address; production without either. */
const PINNED = {
  'service:sandbox': {
    account: ACCOUNT,
    region: 'eu-west-2',
    alarmEmail: 'ops@example.com',
    domains: DOMAINS,
  },
  'service:production': { account: ACCOUNT, region: CLOUDFRONT_REGION },
};

const COMMON = 'AWSManagedRulesCommonRuleSet';
const KNOWN_BAD = 'AWSManagedRulesKnownBadInputsRuleSet';
/** The managed rules that read the body, as the AWS WAF developer guide lists them, but the counted ones. */
const BODY_RULES: readonly ManagedMatch[] = [
  ...['CrossSiteScripting_BODY', 'GenericLFI_BODY', 'EC2MetaDataSSRF_BODY'].map((rule) => ({
    group: COMMON,
    rule,
  })),
  ...['Log4JRCE_BODY', 'JavaDeserializationRCE_BODY', 'ReactJSRCE_BODY'].map((rule) => ({
    group: KNOWN_BAD,
    rule,
  })),
];
/**
 * Counted, never blocking: a body over 8 KB is the application's to refuse, and a URL naming an IPv4
 * address is what a webhook endpoint may be (the portal's and MCP's bodies), the application's to check.
 */
const COUNTED_RULES: readonly ManagedMatch[] = [
  { group: COMMON, rule: 'SizeRestrictions_BODY' },
  { group: COMMON, rule: 'GenericRFI_BODY' },
];
const UPLOADS: readonly WafRequest[] = [
  { method: 'POST', path: '/v1/contract-reviews' },
  { method: 'POST', path: '/v1/contract-reviews/crv_01JD8Z/versions' },
];
/** Requests with bodies that are no upload, some a path or method away from one. */
const NOT_UPLOADS: readonly WafRequest[] = [
  { method: 'POST', path: '/v1/token' },
  { method: 'POST', path: '/v1/clients/onboardings/sessions' },
  { method: 'POST', path: '/mcp' },
  { method: 'PUT', path: '/v1/contract-reviews' },
  { method: 'GET', path: '/v1/contract-reviews' },
  { method: 'POST', path: '/v1/contract-reviews/crv_1' },
  { method: 'POST', path: '/v1/contract-reviews/crv_1/versions/2' },
  { method: 'POST', path: '/v1/contract-reviews/a/b/versions' },
  { method: 'POST', path: '/x/v1/contract-reviews' },
];

const outdirs: string[] = [];
const synth = (context: Record<string, unknown>) => {
  const outdir = mkdtempSync(join(tmpdir(), 'infra-hardening-'));
  outdirs.push(outdir);
  // No stack is bundled: the function code is no part of what is checked here.
  const app = testApp({
    outdir,
    context: { ...cdkJsonContext(), ...context, 'aws:cdk:bundling-stacks': [] },
  });
  const stages = addServiceStages(app, onboardingAssets);
  app.synth();
  return stages;
};

let pinned: Readonly<Record<Environment, ServiceStage>>;

beforeAll(() => {
  pinned = synth(PINNED);
});

afterAll(() => {
  for (const outdir of outdirs) rmSync(outdir, { recursive: true, force: true });
});

describe('cdk-nag (AwsSolutions)', () => {
  it(
    'passes over both stages, environment-agnostic as cdk.json leaves them (a finding would fail the synthesis)',
    async () => {
      // The synthesis stateless-stack.test.ts and upload-ingest.test.ts read, shared (./assembly-cache.ts).
      const agnostic = synthServiceApp({ bundle: 'none' });
      await expect(agnostic).resolves.toBeDefined();
      (await agnostic).cleanUp();
    },
    SYNTH_DEADLINE_MS,
  );

  it('passes over both stages pinned to an account and regions, each with its edge stack in us-east-1', () => {
    expect(pinned.sandbox.stateless.region).toBe('eu-west-2');
    expect(pinned.sandbox.edge.region).toBe(CLOUDFRONT_REGION);
    expect(pinned.production.stateful.account).toBe(ACCOUNT);
  });

  it('fails the synthesis on a finding nobody acknowledged, and a pattern acknowledges only the findings it matches', () => {
    const app = (acknowledged: RegExp | undefined) => {
      const scratch = testApp({ outdir: mkdtempSync(join(tmpdir(), 'infra-nag-')) });
      outdirs.push(scratch.outdir);
      const stack = new Stack(scratch, 'Scratch');
      const bucket = new Bucket(stack, 'Unlogged', { enforceSSL: true });
      if (acknowledged) acknowledgeFindings(bucket, acknowledged, 'test');
      addChecks(scratch);
      return scratch;
    };
    expect(() => app(undefined).synth()).toThrow(/AwsSolutions-S1\b/);
    expect(() => app(/AwsSolutions-S10/).synth()).toThrow(/AwsSolutions-S1\b/);
    expect(() => app(/AwsSolutions-S1/).synth()).not.toThrow();
  });
});

describe('the identity stack’s web ACL (no uploads behind it)', () => {
  it('blocks the managed rules that read the body on every request, and only counts the body size and IPv4 URLs', () => {
    const app = testApp({ outdir: mkdtempSync(join(tmpdir(), 'infra-identity-edge-')) });
    outdirs.push(app.outdir);
    const acl = webAclOf(Template.fromStack(new EdgeStack(app, 'IdentityEdge', { environment: 'identity' })));
    for (const match of BODY_RULES)
      for (const request of [...UPLOADS, ...NOT_UPLOADS])
        expect(judge(acl, { ...request, matches: [match] }).action).toBe('block');
    for (const request of [...UPLOADS, ...NOT_UPLOADS])
      for (const match of COUNTED_RULES)
        expect(judge(acl, { ...request, matches: [match] })).toEqual({ action: 'allow' });
    for (const request of UPLOADS) {
      expect(judge(acl, { ...request, headers: { 'content-length': '1000000000' } })).toEqual({
        action: 'allow',
      });
    }
  });
});

describe('stage settings (context)', () => {
  const settingsOf = (value: unknown) => {
    const app = testApp({ context: { 'service:sandbox': value } });
    return stageSettingsFromContext(app, 'sandbox');
  };

  it('pins a stage only with both account and region, and checks each value', () => {
    expect(settingsOf(undefined)).toEqual({});
    expect(settingsOf({ account: ACCOUNT, region: 'eu-west-2' })).toEqual({
      account: ACCOUNT,
      region: 'eu-west-2',
    });
    expect(() => settingsOf({ account: ACCOUNT })).toThrow(/both account and region/);
    expect(() => settingsOf({ account: '1234', region: 'eu-west-2' })).toThrow(/12-digit/);
    expect(() => settingsOf({ alarmEmail: 'nobody' })).toThrow(/email address/);
    expect(settingsOf({ reservedConcurrency: 0 })).toEqual({ reservedConcurrency: 0 });
    for (const wrong of [-1, 2.5, '5'])
      expect(() => settingsOf({ reservedConcurrency: wrong })).toThrow(
        /reservedConcurrency must be a whole number/,
      );
  });

  it('takes domains only as names in the hosted zone given', () => {
    expect(settingsOf({ domains: DOMAINS }).domains).toEqual(DOMAINS);
    expect(() => settingsOf({ domains: { ...DOMAINS, pages: 'pages.example.org' } })).toThrow(
      /not in the hosted zone/,
    );
    expect(() => settingsOf({ domains: { ...DOMAINS, api: 'https://api.example.com' } })).toThrow(
      /domains\.api/,
    );
  });
});

describe('domains', () => {
  const distributionsOf = (stage: ServiceStage) =>
    Object.values(flattenedTemplate(stage.stateless).findResources('AWS::CloudFront::Distribution')).map(
      (distribution) => distribution.Properties.DistributionConfig,
    );

  it('serves each distribution on its own domain under the edge stack’s certificate, TLS 1.2 at least', () => {
    const configs = distributionsOf(pinned.sandbox);
    expect(configs.map((config) => config.Aliases).sort()).toEqual(
      [[DOMAINS.api], [DOMAINS.frame], [DOMAINS.pages]].sort(),
    );
    for (const config of configs)
      expect(config.ViewerCertificate).toMatchObject({
        MinimumProtocolVersion: 'TLSv1.2_2021',
        SslSupportMethod: 'sni-only',
      });
    Template.fromStack(pinned.sandbox.edge).hasResourceProperties('AWS::CertificateManager::Certificate', {
      DomainName: DOMAINS.api,
      SubjectAlternativeNames: [DOMAINS.pages, DOMAINS.frame],
      ValidationMethod: 'DNS',
    });
    for (const config of each(distributionsOf(pinned.production))) expect(config.Aliases).toBeUndefined();
  });

  it('points each domain at its distribution in the hosted zone (IPv4 and IPv6), and only when a zone is given', () => {
    const records = Object.values(
      flattenedTemplate(pinned.sandbox.stateless).findResources('AWS::Route53::RecordSet'),
    ).map((record) => [record.Properties.Name, record.Properties.Type, record.Properties.HostedZoneId]);
    // And each API's origin name (below).
    const origins = [DOMAINS.api, DOMAINS.frame].map((name) => [
      `${apiOriginName(name)}.`,
      'A',
      DOMAINS.hostedZone.id,
    ]);
    expect(records.sort()).toEqual(
      [
        ...[DOMAINS.api, DOMAINS.pages, DOMAINS.frame].flatMap((name) =>
          [`${name}.`, `${name}.`].map((fqdn, index) => [fqdn, index ? 'AAAA' : 'A', DOMAINS.hostedZone.id]),
        ),
        ...origins,
      ].sort(),
    );
    flattenedTemplate(pinned.production.stateless).resourceCountIs('AWS::Route53::RecordSet', 0);
  });

  it('switches the execute-api addresses off when the domains are in a hosted zone: CloudFront reaches each API on a custom domain of its own', () => {
    const sandbox = flattenedTemplate(pinned.sandbox.stateless);
    const apis = Object.values(sandbox.findResources('AWS::ApiGatewayV2::Api'));
    expect(apis.map((api) => api.Properties.DisableExecuteApiEndpoint)).toEqual([true, true]);
    const names = Object.values(sandbox.findResources('AWS::ApiGatewayV2::DomainName')).map(
      (domain) => domain.Properties.DomainName,
    );
    expect(names.sort()).toEqual([apiOriginName(DOMAINS.api), apiOriginName(DOMAINS.frame)].sort());
    sandbox.resourceCountIs('AWS::ApiGatewayV2::ApiMapping', 2);
    const originDomains = distributionsOf(pinned.sandbox).flatMap((config) =>
      (config.Origins as { DomainName: unknown; CustomOriginConfig?: unknown }[])
        .filter((origin) => origin.CustomOriginConfig)
        .map((origin) => origin.DomainName),
    );
    expect(originDomains.sort()).toEqual([apiOriginName(DOMAINS.api), apiOriginName(DOMAINS.frame)].sort());
    expect(JSON.stringify(distributionsOf(pinned.sandbox))).not.toContain('execute-api');
    const production = Object.values(
      flattenedTemplate(pinned.production.stateless).findResources('AWS::ApiGatewayV2::Api'),
    );
    expect(production.map((api) => api.Properties.DisableExecuteApiEndpoint)).toEqual([undefined, undefined]);
  });

  it('stores published links under the pages domain, so a redeployed stateless stack keeps them', () => {
    expect(pinned.sandbox.stateless.pages.baseUrl).toBe(`https://${DOMAINS.pages}`);
    expect(pinned.sandbox.stateless.onboarding.origin).toBe(`https://${DOMAINS.frame}`);
    const withPages = Object.values(
      flattenedTemplate(pinned.sandbox.stateless).findResources('AWS::Lambda::Function'),
    ).filter((fn) => fn.Properties.Environment?.Variables?.PAGES_BASE_URL !== undefined);
    expect(withPages.length).toBeGreaterThan(20);
    for (const fn of withPages)
      expect(fn.Properties.Environment.Variables.PAGES_BASE_URL).toBe(`https://${DOMAINS.pages}`);
  });

  it('mails the alarms to the address given', () => {
    flattenedTemplate(pinned.sandbox.stateless).hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
    });
    flattenedTemplate(pinned.production.stateless).resourceCountIs('AWS::SNS::Subscription', 0);
  });
});

describe('workflows (asl-validator)', () => {
  it.each(Object.entries(WORKFLOW_FILES))('%s: %s is valid Amazon States Language', (_kind, file) => {
    // The placeholders CDK substitutes, as the ARNs and URLs they become.
    const definition = readFileSync(fromRoot(file), 'utf8')
      .replace(/\$\{([A-Za-z0-9]+)FunctionArn\}/g, `arn:aws:lambda:eu-west-2:${ACCOUNT}:function:$1`)
      .replace(/\$\{([A-Za-z0-9]+)Url\}/g, `https://sqs.eu-west-2.amazonaws.com/${ACCOUNT}/$1`);
    const { isValid, errorsText } = aslValidator(JSON.parse(definition));
    expect(isValid ? '' : errorsText('\n')).toBe('');
  });

  it('validates every workflow file there is', () => {
    const files = readdirSync(fromRoot('lib/workflows')).map((name) => `lib/workflows/${name}`);
    expect(files.sort()).toEqual(Object.values(WORKFLOW_FILES).sort());
  });
});

describe.each<Environment>(['sandbox', 'production'])('stateless stack (%s)', (environment) => {
  let stage: ServiceStage;
  let template: Template;
  let statements: { role: string; statement: PolicyStatement }[];

  beforeAll(() => {
    stage = pinned[environment];
    template = flattenedTemplate(stage.stateless);
    statements = Object.values(template.findResources('AWS::IAM::Policy')).flatMap((policy) =>
      (policy.Properties.Roles as { Ref: string }[]).flatMap((role) =>
        (policy.Properties.PolicyDocument.Statement as PolicyStatement[]).map((statement) => ({
          role: role.Ref,
          statement,
        })),
      ),
    );
  });

  const roleOf = (construct: { role?: { node: { defaultChild?: unknown } } }): string => {
    if (!construct.role) throw new Error('no role');
    return logicalIdOf(stage.stateless, construct.role);
  };

  describe('edges', () => {
    it('has no internet-facing load balancer, and the ingest one admits CloudFront’s prefix list on port 80 only', () => {
      const balancers = Object.values(template.findResources('AWS::ElasticLoadBalancingV2::LoadBalancer'));
      expect(balancers.map((lb) => lb.Properties.Scheme)).toEqual(['internal']);
      const group = stage.stateless.resolve(stage.stateless.ingest.securityGroup.securityGroupId);
      const ingress = Object.values(resources(template))
        .filter((resource) => resource.Type === 'AWS::EC2::SecurityGroupIngress')
        .map((resource) => resource.Properties ?? {})
        .filter((rule) => JSON.stringify(rule.GroupId) === JSON.stringify(group));
      const inline =
        (resources(template)[logicalIdOf(stage.stateless, stage.stateless.ingest.securityGroup)]?.Properties
          ?.SecurityGroupIngress as unknown[] | undefined) ?? [];
      const rules = [...ingress, ...inline] as Record<string, unknown>[];
      expect(rules).toHaveLength(1);
      expect(rules[0]).toMatchObject({ IpProtocol: 'tcp', FromPort: 80, ToPort: 80 });
      expect(rules[0]?.SourcePrefixListId).toBeDefined();
      expect(rules[0]?.CidrIp).toBeUndefined();
      const lookups = Object.values(template.findResources('Custom::AWS'));
      expect(lookups.map((lookup) => JSON.stringify(lookup.Properties))).toEqual([
        expect.stringContaining('com.amazonaws.global.cloudfront.origin-facing'),
      ]);
    });

    it('reaches the ingest service through a VPC origin, and the API over HTTPS', () => {
      const [front] = Object.values(
        template.findResources('AWS::CloudFront::Distribution', {
          Properties: { DistributionConfig: { Comment: `contract-service ${environment}` } },
        }),
      );
      const origins = front?.Properties.DistributionConfig.Origins as Record<string, unknown>[];
      expect(origins.filter((origin) => origin.VpcOriginConfig)).toHaveLength(1);
      for (const origin of each(origins.filter((candidate) => candidate.CustomOriginConfig)))
        expect(origin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });
      template.resourceCountIs('AWS::CloudFront::VpcOrigin', 1);
    });

    it('puts every distribution behind the web ACL, logs it to the log bucket and sends HSTS on every behaviour', () => {
      const distributions = Object.values(template.findResources('AWS::CloudFront::Distribution'));
      expect(distributions).toHaveLength(3);
      const policies = template.findResources('AWS::CloudFront::ResponseHeadersPolicy');
      for (const distribution of distributions) {
        const config = distribution.Properties.DistributionConfig;
        expect(config.WebACLId).toBeDefined();
        expect(config.Logging?.Bucket).toBeDefined();
        const behaviours = [config.DefaultCacheBehavior, ...(config.CacheBehaviors ?? [])];
        for (const behaviour of behaviours) {
          const policyId = behaviour.ResponseHeadersPolicyId?.Ref as string | undefined;
          const policy = policyId ? policies[policyId] : undefined;
          expect(
            policy?.Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.StrictTransportSecurity,
          ).toMatchObject({ AccessControlMaxAgeSec: 31536000, IncludeSubdomains: true, Override: true });
        }
      }
    });

    it('logs the web ACL’s requests to a log group named aws-waf-logs-… (WAF’s rule), kept 3 months', () => {
      const edge = Template.fromStack(stage.edge);
      const groups = edge.findResources('AWS::Logs::LogGroup', {
        Properties: { LogGroupName: Match.stringLikeRegexp('^aws-waf-logs-'), RetentionInDays: 90 },
      });
      expect(Object.keys(groups)).toHaveLength(1);
      const [groupId] = Object.keys(groups);
      const configs = Object.values(edge.findResources('AWS::WAFv2::LoggingConfiguration'));
      expect(configs).toHaveLength(1);
      expect(JSON.stringify(configs[0]?.Properties.LogDestinationConfigs)).toContain(`"Ref":"${groupId}"`);
      expect(configs[0]?.Properties.ResourceArn).toEqual({
        'Fn::GetAtt': [Object.keys(edge.findResources('AWS::WAFv2::WebACL'))[0], 'Arn'],
      });
    });

    it('has a web ACL with a rate rule per address and the managed common and known-bad-inputs rules', () => {
      const edge = Template.fromStack(stage.edge);
      edge.hasResourceProperties('AWS::WAFv2::WebACL', {
        Scope: 'CLOUDFRONT',
        Rules: Match.arrayWith([
          Match.objectLike({
            Statement: { RateBasedStatement: { Limit: REQUESTS_PER_ADDRESS, AggregateKeyType: 'IP' } },
            Action: { Block: {} },
          }),
          ...MANAGED_RULE_GROUPS.map((group) =>
            Match.objectLike({
              Statement: {
                ManagedRuleGroupStatement: Match.objectLike({ VendorName: 'AWS', Name: group.name }),
              },
            }),
          ),
        ]),
      });
    });

    it('lets an upload’s PDF bytes past the managed rules that read the body (counted), and blocks them on every other request', () => {
      const acl = webAclOf(Template.fromStack(stage.edge));
      for (const match of BODY_RULES) {
        for (const upload of UPLOADS)
          expect([upload, match, judge(acl, { ...upload, matches: [match] })]).toEqual([
            upload,
            match,
            { action: 'allow' },
          ]);
        for (const other of NOT_UPLOADS)
          expect([other, match, judge(acl, { ...other, matches: [match] }).action]).toEqual([
            other,
            match,
            'block',
          ]);
      }
      // The rules on the headers, path and query still block an upload.
      for (const rule of [
        { group: COMMON, rule: 'NoUserAgent_HEADER' },
        { group: COMMON, rule: 'CrossSiteScripting_URIPATH' },
        { group: KNOWN_BAD, rule: 'Log4JRCE_HEADER' },
      ])
        for (const upload of UPLOADS) expect(judge(acl, { ...upload, matches: [rule] }).action).toBe('block');
      // A body over 8 KB, or naming an IPv4 address, is the application's to refuse, upload or not.
      for (const request of [...UPLOADS, ...NOT_UPLOADS])
        for (const match of COUNTED_RULES)
          expect([request, match, judge(acl, { ...request, matches: [match] })]).toEqual([
            request,
            match,
            { action: 'allow' },
          ]);
    });

    it('answers 413 payload_too_large to an upload declaring a Content-Length over the largest body, and to no other request', () => {
      const acl = webAclOf(Template.fromStack(stage.edge));
      const withLength = (request: WafRequest, length: string) =>
        judge(acl, { ...request, headers: { 'content-length': length } });
      for (const upload of UPLOADS) {
        for (const length of ['0', '1', String(MAX_UPLOAD_BODY_BYTES), `000${MAX_UPLOAD_BODY_BYTES}`])
          expect([length, withLength(upload, length)]).toEqual([length, { action: 'allow' }]);
        expect(judge(acl, upload)).toEqual({ action: 'allow' });
        for (const length of [
          String(MAX_UPLOAD_BODY_BYTES + 1),
          String(MAX_UPLOAD_BODY_BYTES + 1_000_000),
          '999999999',
          '1000000000',
          `0${MAX_UPLOAD_BODY_BYTES + 1}`,
          '12345678901234567890',
        ]) {
          const verdict = withLength(upload, length);
          expect([length, verdict.action, verdict.action === 'block' && verdict.status]).toEqual([
            length,
            'block',
            413,
          ]);
          const body = verdict.action === 'block' ? JSON.parse(verdict.body ?? '{}') : {};
          expect(body.error.code).toBe('payload_too_large');
        }
      }
      for (const other of NOT_UPLOADS) expect(withLength(other, '1000000000')).toEqual({ action: 'allow' });
    });

    it('throttles both HTTP APIs and logs their requests', () => {
      const stages = Object.values(template.findResources('AWS::ApiGatewayV2::Stage'));
      expect(stages).toHaveLength(2);
      for (const apiStage of stages) {
        expect(apiStage.Properties.AccessLogSettings.DestinationArn).toBeDefined();
        expect(JSON.parse(apiStage.Properties.AccessLogSettings.Format)).not.toHaveProperty('authorization');
        expect(apiStage.Properties.DefaultRouteSettings.ThrottlingRateLimit).toBeGreaterThan(0);
      }
      expect(
        stages.map((apiStage) => apiStage.Properties.DefaultRouteSettings.ThrottlingRateLimit),
      ).toContain(API_THROTTLE.rate);
    });

    it('logs the ingest load balancer’s requests to the log bucket', () => {
      template.hasResourceProperties('AWS::ElasticLoadBalancingV2::LoadBalancer', {
        LoadBalancerAttributes: Match.arrayWith([{ Key: 'access_logs.s3.enabled', Value: 'true' }]),
      });
    });
  });

  describe('operations', () => {
    const alarms = () => Object.values(template.findResources('AWS::CloudWatch::Alarm'));
    /** The alarms whose metric (or metric expression) names the resource of logical id `id`. */
    const alarmsOn = (id: string) =>
      alarms().filter((alarm) => JSON.stringify(alarm.Properties).includes(`"${id}"`));

    it('sends every alarm to the stage’s one alarm topic', () => {
      template.resourceCountIs('AWS::SNS::Topic', 1);
      const topic = logicalIdOf(stage.stateless, stage.stateless.operations.topic);
      expect(alarms().length).toBeGreaterThan(50);
      for (const alarm of alarms()) expect(alarm.Properties.AlarmActions).toEqual([{ Ref: topic }]);
    });

    it('alarms on every queue: a dead-letter queue that holds anything, a work queue whose oldest message is an hour old', () => {
      const queues = Object.keys(template.findResources('AWS::SQS::Queue'));
      expect(queues.length).toBeGreaterThanOrEqual(7);
      for (const queue of queues) expect([queue, alarmsOn(queue).length]).toEqual([queue, 1]);
    });

    it('alarms on every state machine’s failed and timed-out runs, and every function’s errors and throttles', () => {
      for (const machine of each(Object.keys(template.findResources('AWS::StepFunctions::StateMachine')))) {
        const metrics = alarmsOn(machine).map((alarm) => alarm.Properties.MetricName);
        expect([machine, metrics.sort()]).toEqual([machine, ['ExecutionsFailed', 'ExecutionsTimedOut']]);
      }
      for (const fn of each(
        stage.stateless.node.findAll().filter((node) => node instanceof ServiceFunction),
      )) {
        const id = logicalIdOf(stage.stateless, fn);
        const metrics = alarmsOn(id).map((alarm) => alarm.Properties.MetricName);
        expect([id, metrics.sort()]).toEqual([id, ['Errors', 'Throttles']]);
      }
    });

    it('reserves each sandbox function’s concurrency (a queue consumer’s at least its batches at once), none of production’s, well within a fresh account’s 1,000', () => {
      const all = resources(template);
      const queueConcurrency = (id: string) =>
        Math.max(
          0,
          ...Object.values(all)
            .filter(
              (resource) =>
                resource.Type === 'AWS::Lambda::EventSourceMapping' &&
                JSON.stringify(resource.Properties?.FunctionName) === JSON.stringify({ Ref: id }),
            )
            .map(
              (mapping) =>
                (mapping.Properties?.ScalingConfig as { MaximumConcurrency?: number } | undefined)
                  ?.MaximumConcurrency ?? 0,
            ),
        );
      const functions = each(
        stage.stateless.node.findAll().filter((node) => node instanceof ServiceFunction),
      ).map((fn) => logicalIdOf(stage.stateless, fn));
      const reserved = functions.map((id) => [id, all[id]?.Properties?.ReservedConcurrentExecutions]);
      if (environment === 'production') {
        expect(reserved.filter(([, value]) => value !== undefined)).toEqual([]);
        return;
      }
      expect(reserved).toEqual(functions.map((id) => [id, Math.max(5, queueConcurrency(id))]));
      expect(functions.map(queueConcurrency).filter((most) => most > 5).length).toBeGreaterThan(0);
      const total = reserved.reduce((sum, [, value]) => sum + Number(value), 0);
      console.log(`sandbox: ${functions.length} functions, ${total} concurrent executions reserved`);
      // Lambda keeps 100 of the account's 1,000 unreserved; production and identity need most of the rest.
      expect(total).toBeLessThanOrEqual(300);
    });

    it('counts every function’s error log lines in one metric, and alarms on any', () => {
      const filters = Object.values(template.findResources('AWS::Logs::MetricFilter')).filter(
        (filter) => filter.Properties.MetricTransformations[0].MetricName === ERROR_LINES_METRIC,
      );
      const functions = each(
        stage.stateless.node.findAll().filter((node) => node instanceof ServiceFunction),
      );
      expect(filters).toHaveLength(functions.length);
      for (const filter of filters) {
        expect(filter.Properties.FilterPattern).toBe('{ $.level = "ERROR" }');
        expect(filter.Properties.MetricTransformations).toEqual([
          expect.objectContaining({ MetricName: ERROR_LINES_METRIC, MetricValue: '1' }),
        ]);
      }
      const logGroups = new Set(filters.map((filter) => JSON.stringify(filter.Properties.LogGroupName)));
      expect(logGroups.size).toBe(functions.length);
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: ERROR_LINES_METRIC,
        Namespace: `contract-service/${environment}`,
        Threshold: 1,
      });
    });

    it('counts webhook messages given up after their last attempt, from any function’s log, and alarms on any', () => {
      const filters = Object.values(template.findResources('AWS::Logs::MetricFilter')).filter(
        (filter) => filter.Properties.MetricTransformations[0].MetricName === WEBHOOKS_GIVEN_UP_METRIC,
      );
      const functions = each(
        stage.stateless.node.findAll().filter((node) => node instanceof ServiceFunction),
      );
      expect(filters).toHaveLength(functions.length);
      for (const filter of filters)
        expect(filter.Properties.FilterPattern).toBe(
          '{ ($.message = "webhook attempt made") && ($.state = "failed") }',
        );
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: WEBHOOKS_GIVEN_UP_METRIC,
        Namespace: `contract-service/${environment}`,
        Threshold: 1,
      });
    });

    it('alarms when a contract is past its 20-minute promise: the re-drive’s count of them, from its log line, to the topic', () => {
      const filters = Object.values(template.findResources('AWS::Logs::MetricFilter')).filter(
        (filter) => filter.Properties.MetricTransformations[0].MetricName === LATE_PUBLICATIONS_METRIC,
      );
      expect(filters).toHaveLength(1);
      const [filter] = filters;
      expect(filter?.Properties.FilterPattern).toBe(
        `{ ($.message = "${PUBLICATION_CHECK_LINE}") && ($.late >= 0) }`,
      );
      expect(filter?.Properties.MetricTransformations).toEqual([
        expect.objectContaining({
          MetricValue: '$.late',
          MetricNamespace: `contract-service/${environment}`,
        }),
      ]);
      // The re-drive's own log group.
      const redriveLogs = logicalIdOf(stage.stateless, stage.stateless.redrive.logGroup);
      expect(filter?.Properties.LogGroupName).toEqual({ Ref: redriveLogs });
      const topic = logicalIdOf(stage.stateless, stage.stateless.operations.topic);
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: LATE_PUBLICATIONS_METRIC,
        Namespace: `contract-service/${environment}`,
        Statistic: 'Maximum',
        Period: 300,
        Threshold: 1,
        ComparisonOperator: 'GreaterThanOrEqualToThreshold',
        AlarmActions: [{ Ref: topic }],
      });
    });

    it('alarms on each HTTP API’s 5xx share and p99 latency, and on the ingest service having no healthy task, and has a dashboard', () => {
      for (const api of [stage.stateless.api.httpApi, stage.stateless.onboarding.httpApi]) {
        const id = logicalIdOf(stage.stateless, api);
        const rates = alarmsOn(id).filter((alarm) =>
          JSON.stringify(alarm.Properties.Metrics ?? []).includes('5xx'),
        );
        expect(rates.map((rate) => rate.Properties.Threshold)).toEqual([API_5XX_PERCENT]);
        const latencies = alarmsOn(id).filter((alarm) => alarm.Properties.MetricName === 'Latency');
        expect(latencies.map((latency) => latency.Properties)).toEqual([
          expect.objectContaining({
            ExtendedStatistic: 'p99',
            Period: 300,
            Threshold: API_P99_ALARM.toMilliseconds(),
            EvaluationPeriods: 2,
            DatapointsToAlarm: 2,
          }),
        ]);
      }
      template.hasResourceProperties('AWS::CloudWatch::Alarm', {
        MetricName: 'HealthyHostCount',
        ComparisonOperator: 'LessThanThreshold',
        Threshold: 1,
        TreatMissingData: 'breaching',
      });
      template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    });
  });

  describe('least privilege', () => {
    /** The roles allowed `action` on the access-token key, or on every resource (`*`). */
    const allowedOnTokenKey = (action: string) =>
      new Set(
        statements
          .filter(
            ({ statement }) =>
              statement.Effect === 'Allow' &&
              actionsOf(statement).some((granted) => granted === action || granted === 'kms:*') &&
              [statement.Resource]
                .flat()
                .some((resource) => resource === '*' || JSON.stringify(resource).includes('tokenKeyArn')),
          )
          .map(({ role }) => role),
      );

    it('lets only one role sign access tokens: the token function’s', () => {
      const token = stage.stateless.api.functions.get('token');
      expect(token).toBeDefined();
      expect(allowedOnTokenKey('kms:Sign')).toEqual(new Set([roleOf(token as ServiceFunction)]));
    });

    it('lets only the hosts that check access tokens read the token key’s public half: the API’s functions and the ingest task', () => {
      const expected = new Set([
        ...[...stage.stateless.api.functions.values()].map(roleOf),
        logicalIdOf(stage.stateless, stage.stateless.ingest.service.taskDefinition.taskRole),
      ]);
      expect(allowedOnTokenKey('kms:GetPublicKey')).toEqual(expected);
      for (const worker of each(stage.stateless.pipeline.workers.values()))
        expect(allowedOnTokenKey('kms:GetPublicKey').has(roleOf(worker))).toBe(false);
    });

    it('grants table actions only from the declared sets, never a scan or a wildcard, on the table and its named indexes', () => {
      const allowed = new Set(Object.values(TABLE_ACTIONS).flat());
      const tableStatements = statements.filter(({ statement }) =>
        actionsOf(statement).some((action) => action.startsWith('dynamodb:')),
      );
      expect(tableStatements.length).toBeGreaterThan(20);
      for (const { statement } of tableStatements) {
        const actions = actionsOf(statement).filter(
          (action) => !/^dynamodb:(ListStreams|DescribeStream|GetRecords|GetShardIterator)$/.test(action),
        );
        for (const action of actions) expect(allowed).toContain(action);
        expect(JSON.stringify(statement.Resource)).not.toMatch(/index\/\*/);
      }
      for (const worker of each(stage.stateless.pipeline.workers.values())) {
        const actions = statements
          .filter(({ role }) => role === roleOf(worker))
          .flatMap(({ statement }) => actionsOf(statement));
        expect(actions).not.toContain('dynamodb:DeleteItem');
        expect(actions).toContain('dynamodb:UpdateItem');
      }
      expect(GLOBAL_INDEXES.length).toBeGreaterThan(0);
    });

    it('grants blob objects by folder only, each folder one the core writes to', () => {
      expect(artifacts.manifest('crv_1', 1)).toMatch(/^renders\//);
      expect(artifacts.review('crv_1', 1)).toMatch(/^reviews\//);
      expect(publicationKey('slug', 'index.html')).toMatch(/^published\//);
      // The blob bucket's (the frame files' bucket is CDK's bucket deployment's own).
      const blobStatements = statements.filter(
        ({ statement }) =>
          actionsOf(statement).some((action) => /^s3:(Get|Put|Delete)Object/.test(action)) &&
          JSON.stringify(statement.Resource).includes('bucketName'),
      );
      expect(blobStatements.length).toBeGreaterThan(5);
      for (const { statement } of blobStatements) {
        const rendered = JSON.stringify(statement.Resource);
        for (const action of actionsOf(statement)) expect(action).not.toMatch(/\*/);
        const folders = [...rendered.matchAll(/"\/([a-z]+)\/\*"/g)].map((match) => match[1]);
        expect(folders.length).toBeGreaterThan(0);
        for (const folder of folders) expect(BLOB_PREFIXES).toContain(folder);
      }
    });

    it('grants on every resource ("*") only actions that take no resource', () => {
      const resourceless =
        /^(xray:(PutTraceSegments|PutTelemetryRecords|GetSamplingRules|GetSamplingTargets)|logs:(CreateLogDelivery|GetLogDelivery|UpdateLogDelivery|DeleteLogDelivery|ListLogDeliveries|PutResourcePolicy|DescribeResourcePolicies|DescribeLogGroups)|dynamodb:ListStreams|ecr:GetAuthorizationToken|ec2:DescribeManagedPrefixLists|secretsmanager:GetRandomPassword)$/;
      const everywhere = statements.filter(({ statement }) => statement.Resource === '*');
      expect(everywhere.length).toBeGreaterThan(0);
      for (const { statement } of everywhere)
        for (const action of actionsOf(statement)) expect(action).toMatch(resourceless);
    });
  });
});
