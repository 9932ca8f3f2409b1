// infra -> the stacks stay deployable as they grow (issue 29 item 2): with everything configured (domains in
// a hosted zone, alarm addresses, the MCP servers in the shared stacks, the identity stack, and the stages
// pinned to another region than CloudFront's, so the cross-region reader is in), no template, nested
// stacks' included, passes 350 resources, and none imports another stack's export, pinned or not.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { REHEARSAL_CONTEXT } from '../../bin/deploy-check/rehearsal';
import { addIdentityStack, addServiceStages, buildIdentityAssets } from '../../lib/service-app';
import {
  importCount,
  MAX_RESOURCES,
  resourceCount,
  type SynthesisedTemplate,
  synthesisedTemplates,
} from '../../lib/template-checks';
import { onboardingAssets, SYNTH_DEADLINE_MS } from './synth';

const pinned = { account: '111111111111', region: 'eu-west-2' };

/** The rehearsal's context with every stack pinned to London: the edge stacks are read across regions. */
const PINNED_CONTEXT: Record<string, unknown> = {
  ...REHEARSAL_CONTEXT,
  'service:sandbox': { ...(REHEARSAL_CONTEXT['service:sandbox'] as object), ...pinned },
  'service:production': { ...(REHEARSAL_CONTEXT['service:production'] as object), ...pinned },
  'service:identity': pinned,
};

const outdirs: string[] = [];

/** Every template of the whole app (stages, identity, shared stacks) synthesised with `context`, unbundled. */
const synthesise = async (context: Record<string, unknown>): Promise<SynthesisedTemplate[]> => {
  const outdir = mkdtempSync(join(tmpdir(), 'headroom-test-'));
  outdirs.push(outdir);
  const app = new App({ outdir, context: { ...context, 'aws:cdk:bundling-stacks': [] } });
  addIdentityStack(app, await buildIdentityAssets(), addServiceStages(app, onboardingAssets));
  app.synth();
  return synthesisedTemplates(app);
};

let pinnedTemplates: SynthesisedTemplate[];
let agnosticTemplates: SynthesisedTemplate[];

beforeAll(async () => {
  pinnedTemplates = await synthesise(PINNED_CONTEXT);
  agnosticTemplates = await synthesise(REHEARSAL_CONTEXT);
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
