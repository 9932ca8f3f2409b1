// infra -> the whole CDK app as `cdk synth` builds it: a stage per environment, each a stateful and a
// stateless stack, environment-agnostic, with real bundles and a lean container build context.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { ROUTES } from '../../lambdas/api/routes';
import { fromRoot } from '../../lib/paths';
import { handlerEntry } from '../../lib/service-api';
import { INGEST_DOCKERFILE } from '../../lib/upload-ingest';
import { logicalIdOf, type SynthesisedApp, synthServiceApp } from './synth';

let synthesised: SynthesisedApp;

beforeAll(() => {
  synthesised = synthServiceApp();
  console.log(`synthesised both stages in ${synthesised.milliseconds} ms`);
});

afterAll(() => synthesised?.cleanUp());

interface AssetManifest {
  files: Record<string, { source: { path: string; packaging: string } }>;
  dockerImages: Record<string, { source: { directory: string; dockerFile?: string; platform?: string } }>;
}
/** A stack's asset manifest, and the directory its asset paths are relative to (the stage's assembly). */
const assetManifestOf = (stackName: string): { manifest: AssetManifest; directory: string } => {
  const artifact = synthesised.assembly.stacksRecursively.find((stack) => stack.stackName === stackName);
  const dependency = artifact?.dependencies.find((candidate) => candidate.id.endsWith('.assets'));
  if (!artifact || !dependency) throw new Error(`no asset manifest for ${stackName}`);
  const directory = artifact.assembly.directory;
  return { manifest: JSON.parse(readFileSync(join(directory, `${dependency.id}.json`), 'utf8')), directory };
};

describe('CDK app', () => {
  it('has a sandbox and a production stage of a stateful and a stateless stack each, all distinctly named', () => {
    const names = synthesised.assembly.stacksRecursively.map((stack) => stack.stackName).sort();
    expect(names).toEqual([
      'contract-service-production-stateful',
      'contract-service-production-stateless',
      'contract-service-sandbox-stateful',
      'contract-service-sandbox-stateless',
    ]);
    expect(synthesised.stages.sandbox.stageName).toBe('Sandbox');
    expect(synthesised.stages.production.stageName).toBe('Production');
  });

  it('is environment-agnostic: no account or region is needed to synthesise', () => {
    for (const stack of synthesised.assembly.stacksRecursively) {
      expect(stack.environment).toMatchObject({ account: 'unknown-account', region: 'unknown-region' });
    }
  });

  it('builds each stateless stack on its own stage’s stateful stack', () => {
    for (const stage of Object.values(synthesised.stages)) {
      const dependencies = stage.stateless.dependencies.map((stack) => stack.stackName);
      expect(dependencies).toEqual([stage.stateful.stackName]);
    }
  });

  it('gives each stage its own access-token signing key, and protects production’s data from deletion', () => {
    const secretIds = Object.values(synthesised.stages).map((stage) => {
      Template.fromStack(stage.stateful).resourceCountIs('AWS::SecretsManager::Secret', 1);
      return `${stage.stateful.stackName}/${logicalIdOf(stage.stateful, stage.stateful.signingSecret)}`;
    });
    expect(new Set(secretIds).size).toBe(2);
    expect(synthesised.stages.production.stateful.terminationProtection).toBe(true);
  });

  it('has a handler module for every endpoint and the fallback', () => {
    for (const name of [...ROUTES.map((route) => route.name), 'not-found']) {
      expect([name, existsSync(fromRoot(handlerEntry(name)))]).toEqual([name, true]);
    }
  });

  it('bundles every function with esbuild into ESM with a `require`, source maps, pdf.js’s files, and no @napi-rs/canvas', () => {
    const { manifest, directory: base } = assetManifestOf('contract-service-sandbox-stateless');
    const bundles = Object.values(manifest.files)
      .map((file) => join(base, file.source.path))
      .filter((directory) => existsSync(join(directory, 'index.mjs')));
    expect(bundles).toHaveLength(ROUTES.length + 1);
    for (const directory of bundles) {
      expect(readdirSync(directory).sort()).toEqual([
        'index.mjs',
        'index.mjs.map',
        'node_modules',
        'pdf.worker.mjs',
      ]);
      // What lambdas/adapters/pdf resolves at run time, relative to the bundle.
      const pdfjs = createRequire(join(directory, 'index.mjs')).resolve('pdfjs-dist/package.json');
      expect(pdfjs.startsWith(directory)).toBe(true);
      for (const data of ['standard_fonts', 'cmaps', 'wasm'])
        expect(existsSync(join(dirname(pdfjs), data))).toBe(true);
      const code = readFileSync(join(directory, 'index.mjs'), 'utf8');
      expect(code.startsWith("import { createRequire as __serviceCreateRequire } from 'node:module';")).toBe(
        true,
      );
      expect(code).not.toMatch(/@napi-rs\/canvas-(linux|darwin|win32)/);
    }
  });

  it('stages the ingest image from ingest/Dockerfile for ARM64, without node_modules, cdk.out, .data, .git or test results', () => {
    const { manifest, directory: base } = assetManifestOf('contract-service-sandbox-stateless');
    const images = Object.values(manifest.dockerImages);
    expect(images).toHaveLength(1);
    const [image] = images;
    expect(image?.source).toMatchObject({ dockerFile: INGEST_DOCKERFILE, platform: 'linux/arm64' });
    const context = readdirSync(join(base, image?.source.directory ?? 'missing'));
    expect(context).toEqual(
      expect.arrayContaining(['package.json', 'package-lock.json', 'bin', 'lambdas', 'ingest']),
    );
    for (const excluded of ['node_modules', 'cdk.out', '.data', '.git', 'test-results', 'coverage']) {
      expect(context).not.toContain(excluded);
    }
  });
});
