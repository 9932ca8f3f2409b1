// infra -> the stacks stay deployable as they grow (issue 29 item 2): with everything configured (domains in
// a hosted zone, alarm addresses, the MCP servers in the shared stacks, the identity stack, and the stages
// pinned to another region than CloudFront's, so the cross-region reader is in), no template, nested
// stacks' included, passes 350 resources, and none imports another stack's export, pinned or not. And the
// deploy rehearsal in CI (issue 29 item 6): every check of `npm run deploy:check` on the same templates
// (unbundled: no check reads a function's code), printing the resources per stack and the largest.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REHEARSAL_CONTEXT } from '../../bin/deploy-check/rehearsal';
import { readmeSelectors, unmatchedSelectors } from '../../bin/deploy-check/selectors';
import { deployRefusal } from '../../lib/deploy-preflight';
import type { IdentityAssets } from '../../lib/identity-stack';
import { fromRoot } from '../../lib/paths';
import { addIdentityStack, addServiceStages, buildIdentityAssets } from '../../lib/service-app';
import {
  importCount,
  MAX_RESOURCES,
  resourceCount,
  type SynthesisedTemplate,
  sizeReport,
  stateMachinesWithoutVendedLogs,
  synthesisedTemplates,
  type TemplateResource,
  templateFailures,
} from '../../lib/template-checks';
import { onboardingAssets, SYNTH_DEADLINE_MS } from './synth';
import { testApp } from './test-app';

const pinned = { account: '111111111111', region: 'eu-west-2' };

/** The rehearsal's context with every stack pinned to London: the edge stacks are read across regions. */
const PINNED_CONTEXT: Record<string, unknown> = {
  ...REHEARSAL_CONTEXT,
  'service:sandbox': { ...(REHEARSAL_CONTEXT['service:sandbox'] as object), ...pinned },
  'service:production': { ...(REHEARSAL_CONTEXT['service:production'] as object), ...pinned },
  'service:identity': { ...(REHEARSAL_CONTEXT['service:identity'] as object), ...pinned },
};

const outdirs: string[] = [];

/** Every template of the whole app (stages, identity, shared stacks) synthesised with `context`, unbundled. */
const synthesise = (
  context: Record<string, unknown>,
  identityAssets: IdentityAssets,
): SynthesisedTemplate[] => {
  const outdir = mkdtempSync(join(tmpdir(), 'headroom-test-'));
  outdirs.push(outdir);
  const app = testApp({ outdir, context: { ...context, 'aws:cdk:bundling-stacks': [] } });
  addIdentityStack(app, identityAssets, addServiceStages(app, onboardingAssets));
  app.synth();
  return synthesisedTemplates(app);
};

/** Where the last synthesis wrote its assembly (the rehearsal's, for `cdk ls`). */
const lastOutdir = (): string => outdirs.at(-1) as string;

let pinnedTemplates: SynthesisedTemplate[];
let agnosticTemplates: SynthesisedTemplate[];
let rehearsalOutdir: string;

beforeAll(async () => {
  // The portal's and the back office's files, built once for both syntheses.
  const identityAssets = await buildIdentityAssets();
  pinnedTemplates = synthesise(PINNED_CONTEXT, identityAssets);
  agnosticTemplates = synthesise(REHEARSAL_CONTEXT, identityAssets);
  rehearsalOutdir = lastOutdir();
}, SYNTH_DEADLINE_MS);

afterAll(() => {
  for (const outdir of outdirs) rmSync(outdir, { recursive: true, force: true });
});

test(`no template has more than ${MAX_RESOURCES} resources with everything configured`, () => {
  const sizes = pinnedTemplates.map(({ name, template }) => [name, resourceCount(template)] as const);
  console.log(sizes.map(([name, count]) => `${String(count).padStart(4)}  ${name}`).join('\n'));
  // Both stages, their nested stacks, the identity and shared stacks are all counted.
  expect(sizes.map(([name]) => name)).toEqual(
    expect.arrayContaining([
      'contract-service-sandbox-stateless',
      'contract-service-production-stateless',
      'contract-service-identity',
      'contract-service-sandbox-shared',
    ]),
  );
  expect(
    sizes.filter(([name]) => name.startsWith('contract-service-sandbox-stateless/')).length,
  ).toBeGreaterThan(0);
  expect(sizes.filter(([, count]) => count > MAX_RESOURCES)).toEqual([]);
});

test('no template imports another stack’s export, whether the stages are pinned across regions or not', () => {
  for (const templates of [pinnedTemplates, agnosticTemplates])
    expect(
      templates
        .filter(({ template }) => importCount(template) > 0)
        .map(({ name, template }) => [name, importCount(template)]),
    ).toEqual([]);
});

test(
  'the deploy rehearsal passes every check of `npm run deploy:check`, and prints the figures',
  async () => {
    console.log(sizeReport(agnosticTemplates).join('\n'));
    expect(deployRefusal(REHEARSAL_CONTEXT, 'us-east-1')).toBeUndefined();
    // cdk-nag ran in the synthesis (an unacknowledged finding fails it); these are the template checks.
    expect(templateFailures(agnosticTemplates)).toEqual([]);
    const selectors = readmeSelectors(readFileSync(fromRoot('README.md'), 'utf8'));
    expect(selectors).toEqual(expect.arrayContaining(['Sandbox/*', 'Identity']));
    expect(await unmatchedSelectors(rehearsalOutdir, selectors)).toEqual([]);
  },
  SYNTH_DEADLINE_MS,
);

test('a state machine that logs nowhere, or outside /aws/vendedlogs/, or for ever, is a rehearsal failure', () => {
  const group = (name: unknown, retention?: number): TemplateResource => ({
    Type: 'AWS::Logs::LogGroup',
    Properties: { LogGroupName: name, ...(retention !== undefined && { RetentionInDays: retention }) },
  });
  const machine = (groupId?: string): TemplateResource => ({
    Type: 'AWS::StepFunctions::StateMachine',
    Properties: groupId
      ? {
          LoggingConfiguration: {
            Destinations: [{ CloudWatchLogsLogGroup: { LogGroupArn: { 'Fn::GetAtt': [groupId, 'Arn'] } } }],
          },
        }
      : {},
  });
  const template = {
    Resources: {
      Vended: group({ 'Fn::Join': ['', ['/aws/vendedlogs/states/', 'stack', '/contract-1']] }, 30),
      Elsewhere: group('/contract-service/contract', 30),
      Forever: group('/aws/vendedlogs/states/forever'),
      Kept: machine('Vended'),
      Silent: machine(),
      Outside: machine('Elsewhere'),
      Unbounded: machine('Forever'),
    },
  };
  expect(stateMachinesWithoutVendedLogs(template)).toEqual(['Silent', 'Outside', 'Unbounded']);
  expect(templateFailures([{ name: 'stack', template }])).toContain(
    'stack: state machine Silent does not log under /aws/vendedlogs/ with a retention',
  );
});
