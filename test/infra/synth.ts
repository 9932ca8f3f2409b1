// test support -> synthesises the real CDK app (both stages, real esbuild bundling; the identity stack where
// asked), once per configuration for all test files, and reads templates and asset manifests back.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { App, type CfnElement, NestedStack, Stack, Stage } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { CloudAssembly } from 'aws-cdk-lib/cx-api';
import type { IConstruct } from 'constructs';
import { buildOnboardingAssets } from '../../frontend/onboarding/build';
import type { EnvironmentResources } from '../../lib/identity-context';
import type { IdentityAssets } from '../../lib/identity-stack';
import { fromRoot } from '../../lib/paths';
import {
  addIdentityStack,
  addServiceStages,
  buildIdentityAssets,
  type IdentityStacks,
} from '../../lib/service-app';
import { ServiceFunction } from '../../lib/service-function';
import type { ServiceStage } from '../../lib/service-stage';
import { type SynthesisedTemplate, synthesisedTemplates } from '../../lib/template-checks';
import { cachedAssembly } from './assembly-cache';
import { fillBundleCache, useBundleCache } from './bundle-cache';
import { testApp } from './test-app';

/** The sign-up form's files, built once per test file as `bin/app.ts` builds them before the app. */
export const onboardingAssets = await buildOnboardingAssets();

/**
 * A generous deadline for a hook that synthesises the app: a synthesis takes seconds on an idle machine,
 * much longer on a loaded one with both of Jest's workers busy.
 */
export const SYNTH_DEADLINE_MS = 600_000;

/** One deployed function synthesised alone, as `cdk synth` bundles it. */
export interface LoneFunction {
  readonly properties: {
    Code: { S3Key: string };
    Environment?: { Variables?: Record<string, unknown> };
  };
  /** The directory of its bundle (`index.mjs`, its map and what is beside them). */
  readonly assetDir: string;
  /** Removes what the synthesis wrote. */
  readonly remove: () => void;
}

/** A `ServiceFunction` of `entry` (relative to the repository root) in a stack of its own, synthesised. */
export const synthesiseLoneFunction = (entry: string): LoneFunction => {
  useBundleCache();
  const outdir = mkdtempSync(join(tmpdir(), 'lone-function-'));
  const stack = new Stack(testApp({ outdir }), 'LoneFunction');
  new ServiceFunction(stack, 'Lone', { entry });
  const properties = Object.values(Template.fromStack(stack).findResources('AWS::Lambda::Function'))[0]
    ?.Properties as LoneFunction['properties'];
  return {
    properties,
    assetDir: join(outdir, `asset.${properties.Code.S3Key.replace(/\.zip$/, '')}`),
    remove: () => rmSync(outdir, { recursive: true, force: true }),
  };
};

export interface SynthesisedApp {
  /** The app as the tests read it: its constructs (for their names and settings), not synthesised itself. */
  readonly app: App;
  readonly stages: { readonly sandbox: ServiceStage; readonly production: ServiceStage };
  /** The identity stack, its edge stack and the shared stacks, where they were asked for. */
  readonly identity: IdentityStacks | undefined;
  /** The portal's and the back office's built files the identity stack was given. */
  readonly identityAssets: IdentityAssets | undefined;
  /** The cloud assembly the app's configuration synthesised to (shared with other test files: read only). */
  readonly outdir: string;
  readonly assembly: CloudAssembly;
  readonly milliseconds: number;
  cleanUp(): void;
}

/** The context `cdk synth` gets from cdk.json, so the tests build what the CLI builds. */
export const cdkJsonContext = (): Record<string, unknown> =>
  JSON.parse(readFileSync(fromRoot('cdk.json'), 'utf8')).context;

/** The cloud assembly each app of the tests was synthesised to, and the directory it was built in. */
const assemblies = new WeakMap<IConstruct, { builtIn: string; assembly: string }>();

/**
 * The whole app as `cdk synth` makes it with `context` (cdk.json's by default), its functions bundled as
 * `bundle` says: `all`; `sandbox` (the production stage's functions get placeholder assets, everything else
 * the same) for tests that read one stage's bundles, since bundling is most of a synthesis's time; `none` for
 * tests that read no code. `identity`: the identity stack and the stages' shared stacks beside the stages.
 * Each configuration is synthesised once for all test files (./assembly-cache.ts); the app returned is built
 * again here without bundling for its constructs, and its templates are read from that synthesis
 * (`templateOf`, `flattenedTemplate`, `templatesOf`). The synthesis runs cdk-nag (lib/checks.ts): an
 * unacknowledged finding anywhere throws here.
 */
export async function synthServiceApp({
  bundle = 'all',
  identity = false,
  context = cdkJsonContext(),
}: {
  bundle?: 'all' | 'sandbox' | 'none';
  identity?: boolean;
  context?: Record<string, unknown>;
} = {}): Promise<SynthesisedApp> {
  const started = Date.now();
  const identityAssets = identity ? await buildIdentityAssets() : undefined;
  const build = (outdir: string, bundlingStacks: string[]) => {
    const app = new App({ outdir, context: { ...context, 'aws:cdk:bundling-stacks': bundlingStacks } });
    const stages = addServiceStages(app, onboardingAssets);
    return { app, stages, identity: identityAssets && addIdentityStack(app, identityAssets, stages) };
  };
  const bundlingStacks = { all: ['**'], sandbox: ['Sandbox/**'], none: [] }[bundle];
  const assembly = cachedAssembly(
    { settings: { bundle, identity, context }, what: `the app (${bundle} bundled)` },
    (outdir) => {
      // Another test file may have bundled the same functions from the same sources this run; those it has
      // not are bundled together before the synthesis stages them all from the cache.
      if (bundle !== 'none') fillBundleCache((scratch) => build(scratch, bundlingStacks));
      build(outdir, bundlingStacks).app.synth();
    },
  );
  // Without bundling: the constructs are the same, and their code is read from the synthesis.
  const builtIn = mkdtempSync(join(tmpdir(), 'infra-test-'));
  const built = build(builtIn, []);
  assemblies.set(built.app, { builtIn, assembly });
  return {
    ...built,
    identityAssets,
    outdir: assembly,
    assembly: new CloudAssembly(assembly),
    milliseconds: Date.now() - started,
    cleanUp: () => rmSync(builtIn, { recursive: true, force: true }),
  };
}

/** The directory `stack`'s template is in: in its app's synthesis where `synthServiceApp` made it. */
const templateDirectoryOf = (stack: Stack): string => {
  const shared = assemblies.get(stack.node.root);
  const stageOutdir = Stage.of(stack)?.outdir;
  if (!shared || !stageOutdir) throw new Error(`${stack.node.path} is not of an app synthServiceApp made`);
  return join(shared.assembly, relative(shared.builtIn, stageOutdir));
};

/** A stack's template, as synthesised (by `synthServiceApp`'s synthesis for a stack of its app). */
export const templateOf = (stack: Stack): Template =>
  assemblies.has(stack.node.root)
    ? Template.fromJSON(
        JSON.parse(readFileSync(join(templateDirectoryOf(stack), stack.templateFile), 'utf8')),
      )
    : Template.fromStack(stack);

/** Every template of a synthesised app, its nested stacks' too, by stack name (lib/template-checks.ts). */
export const templatesOf = (synthesised: SynthesisedApp): SynthesisedTemplate[] =>
  synthesisedTemplates(synthesised.app, templateDirectoryOf);

interface AssetManifest {
  files: Record<
    string,
    { source: { path: string; packaging: string }; destinations: Record<string, { objectKey: string }> }
  >;
  dockerImages: Record<string, { source: { directory: string; dockerFile?: string; platform?: string } }>;
}

/** A stack's asset manifest, and the directory its asset paths are relative to (the stage's assembly). */
export const assetManifestOf = (
  synthesised: SynthesisedApp,
  stackName: string,
): { manifest: AssetManifest; directory: string } => {
  const artifact = synthesised.assembly.stacksRecursively.find((stack) => stack.stackName === stackName);
  const dependency = artifact?.dependencies.find((candidate) => candidate.id.endsWith('.assets'));
  if (!artifact || !dependency) throw new Error(`no asset manifest for ${stackName}`);
  const directory = artifact.assembly.directory;
  return { manifest: JSON.parse(readFileSync(join(directory, `${dependency.id}.json`), 'utf8')), directory };
};

/** Where the file or directory of the asset a template names by its S3 object key was staged. */
export const assetPathOf = (synthesised: SynthesisedApp, stackName: string, objectKey: string): string => {
  const { manifest, directory } = assetManifestOf(synthesised, stackName);
  const file = Object.values(manifest.files).find((candidate) =>
    Object.values(candidate.destinations).some((destination) => destination.objectKey === objectKey),
  );
  if (!file) throw new Error(`no asset ${objectKey} in ${stackName}`);
  return join(directory, file.source.path);
};

export type Resource = { Type: string; Properties?: Record<string, unknown> };

/** The template's resources, by logical id. */
export const resources = (template: Template): Record<string, Resource> =>
  (template.toJSON() as { Resources: Record<string, Resource> }).Resources;

type Json = { [key: string]: unknown };

/**
 * A stack's template with its nested stacks' resources in it, as one template would have them: a nested
 * stack's parameter is replaced by what the parent passes it, and the parent's read of a nested stack's
 * output by that output's value. Construct ids under a nested stack are those they had in the stack, so
 * the logical ids are too, and a test reads the stateless stack whole, however it is split.
 */
export function flattenedTemplate(stack: Stack): Template {
  const parent = templateOf(stack).toJSON() as Json & { Resources: Record<string, Json> };
  const nested = new Map(
    stack.node
      .findAll()
      .filter((construct): construct is NestedStack => NestedStack.isNestedStack(construct))
      .filter((child) => child.nestedStackParent === stack)
      .map((child) => [
        stack.getLogicalId(child.nestedStackResource as CfnElement),
        templateOf(child).toJSON() as Json & {
          Resources: Record<string, Json>;
          Outputs?: Record<string, { Value: unknown }>;
        },
      ]),
  );
  const parametersOf = (id: string) =>
    ((parent.Resources[id]?.Properties as Json | undefined)?.Parameters ?? {}) as Record<string, unknown>;
  /** `value` as written in the parent (`within` undefined) or in the nested stack of logical id `within`. */
  const resolve = (value: unknown, within?: string): unknown => {
    if (Array.isArray(value)) return value.map((item) => resolve(item, within));
    if (typeof value !== 'object' || value === null) return value;
    const object = value as Json;
    const ref = object.Ref;
    if (within !== undefined && typeof ref === 'string' && ref in parametersOf(within))
      return resolve(parametersOf(within)[ref]);
    const getAtt = object['Fn::GetAtt'];
    if (within === undefined && Array.isArray(getAtt) && nested.has(getAtt[0] as string)) {
      const [id, attribute] = getAtt as [string, string];
      const output = nested.get(id)?.Outputs?.[attribute.replace(/^Outputs\./, '')];
      if (!output) throw new Error(`no output ${attribute} in nested stack ${id}`);
      return resolve(output.Value, id);
    }
    return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, resolve(item, within)]));
  };
  const merged: Record<string, unknown> = {};
  const add = (resources: Record<string, Json>, within?: string) => {
    for (const [id, resource] of Object.entries(resources)) {
      if (nested.has(id)) continue;
      if (id in merged) throw new Error(`logical id ${id} is in two of ${stack.stackName}'s templates`);
      merged[id] = resolve(resource, within);
    }
  };
  add(parent.Resources);
  for (const [id, template] of nested) add(template.Resources, id);
  return Template.fromJSON({ ...parent, Resources: merged, Outputs: resolve(parent.Outputs) });
}

/** The logical id a construct's CloudFormation resource has in its stack. */
export const logicalIdOf = (stack: Stack, construct: { node: { defaultChild?: unknown } }): string => {
  const child = construct.node.defaultChild;
  if (!child) throw new Error('construct has no CloudFormation resource');
  return stack.getLogicalId(child as Parameters<Stack['getLogicalId']>[0]);
};

export interface PolicyStatement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

/** Every statement of the inline policies attached to a role. */
export function statementsOfRole(template: Template, roleLogicalId: string): PolicyStatement[] {
  return Object.values(template.findResources('AWS::IAM::Policy')).flatMap((policy) => {
    const roles = (policy.Properties.Roles ?? []) as unknown[];
    const attached = roles.some((role) => JSON.stringify(role) === JSON.stringify({ Ref: roleLogicalId }));
    return attached ? (policy.Properties.PolicyDocument.Statement as PolicyStatement[]) : [];
  });
}

export const actionsOf = (statement: PolicyStatement): string[] =>
  Array.isArray(statement.Action) ? statement.Action : [statement.Action];

/** Whether an Allow statement grants `action` on a resource whose rendering mentions `resource` (a logical id or export). */
export const grants = (statements: PolicyStatement[], action: string, resource: string): boolean =>
  statements.some(
    (statement) =>
      statement.Effect === 'Allow' &&
      actionsOf(statement).includes(action) &&
      JSON.stringify(statement.Resource).includes(resource),
  );

/** One environment's resources as `service:identity` names them (from its stage's outputs), in account 111111111111. */
export const namedEnvironment = (environment: string): EnvironmentResources => {
  const account = '111111111111';
  return {
    tableName: `service-${environment}`,
    tableKeyArn: `arn:aws:kms:eu-west-1:${account}:key/key-${environment}`,
    bucketName: `blobs-${environment}`,
    pagesBaseUrl: `https://pages-${environment}.example.com`,
    frameUrl: `https://frame-${environment}.example.com`,
    deliveryQueueArn: `arn:aws:sqs:eu-west-1:${account}:delivery-${environment}`,
    deliveryQueueUrl: `https://sqs.eu-west-1.amazonaws.com/${account}/delivery-${environment}`,
    deliveryStateMachineArn: `arn:aws:states:eu-west-1:${account}:stateMachine:delivery-${environment}`,
  };
};
