// infra -> the whole CDK app as `cdk synth` builds it: a stage per environment, each a stateful and a
// stateless stack, environment-agnostic, with real bundles and a lean container build context.

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CJK_FACE_FILE, CJK_FACE_PACKAGE } from '../../lambdas/adapters/pdf/cjk-face-file';
import { FALLBACK_HANDLER, ROUTES } from '../../lambdas/api/routes';
import { fontPackageRoot } from '../../lambdas/pages/text-layer-font';
import { TEXT_LAYER_FONT_DATA } from '../../lambdas/pages/text-layer-font-data';
import { RENDER_CONTRACTS, WORKERS } from '../../lib/contract-pipeline';
import { fromRoot } from '../../lib/paths';
import { handlerEntry } from '../../lib/service-api';
import { INGEST_DOCKERFILE } from '../../lib/upload-ingest';
import {
  DELIVER,
  FAN_OUT,
  GIVE_UP_DELIVERY_WAIT,
  HAND_BACK_DELIVERY,
  PUBLISH_EVENTS,
} from '../../lib/webhook-delivery';
import {
  assetManifestOf,
  assetPathOf,
  flattenedTemplate,
  logicalIdOf,
  resources,
  SYNTH_DEADLINE_MS,
  type SynthesisedApp,
  synthServiceApp,
  templateOf,
} from './synth';

let synthesised: SynthesisedApp;

beforeAll(async () => {
  synthesised = await synthServiceApp({ bundle: 'sandbox' }); // its bundles are read of the sandbox stage only
  console.log(`synthesised both stages in ${synthesised.milliseconds} ms`);
}, SYNTH_DEADLINE_MS);

afterAll(() => synthesised?.cleanUp());

describe('CDK app', () => {
  it('has a sandbox and a production stage of an edge, a stateful and a stateless stack each, all distinctly named', () => {
    const names = synthesised.assembly.stacksRecursively.map((stack) => stack.stackName).sort();
    expect(names).toEqual([
      'contract-service-production-edge',
      'contract-service-production-stateful',
      'contract-service-production-stateless',
      'contract-service-sandbox-edge',
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

  it('builds each stateless stack on its own stage’s stateful and edge stacks', () => {
    for (const stage of Object.values(synthesised.stages)) {
      const dependencies = stage.stateless.dependencies.map((stack) => stack.stackName);
      expect(dependencies.sort()).toEqual([stage.edge.stackName, stage.stateful.stackName].sort());
    }
  });

  it('gives each stage its own access-token key and answers key, and protects production’s data from deletion', () => {
    const secretIds = Object.values(synthesised.stages).flatMap((stage) => {
      templateOf(stage.stateful).resourceCountIs('AWS::SecretsManager::Secret', 1);
      return [stage.stateful.tokenKey, stage.stateful.answersKeySecret].map(
        (key) => `${stage.stateful.stackName}/${logicalIdOf(stage.stateful, key)}`,
      );
    });
    expect(new Set(secretIds).size).toBe(4);
    expect(synthesised.stages.production.stateful.terminationProtection).toBe(true);
  });

  /** The handler modules of the functions outside the API and the contract pipeline's workers. */
  const OTHER_ENTRIES = [
    'lambdas/hosts/aws/functions/render-contracts.ts',
    'lambdas/hosts/aws/functions/deliver-webhooks.ts',
    'lambdas/hosts/aws/functions/hand-back-delivery.ts',
    'lambdas/hosts/aws/functions/give-up-delivery-wait.ts',
    'lambdas/hosts/aws/functions/fan-out.ts',
    'lambdas/hosts/aws/functions/publish-events.ts',
    'lambdas/hosts/aws/functions/redrive-runs.ts',
  ];

  it('has a handler module for every endpoint, the fallback, every worker, the render and delivery consumers, the hand-back, the fan-out and the re-drive', () => {
    const entries = [...ROUTES.map((route) => route.name), FALLBACK_HANDLER].map((name) =>
      handlerEntry(name),
    );
    for (const entry of [...entries, ...WORKERS.map((worker) => worker.entry), ...OTHER_ENTRIES]) {
      expect([entry, existsSync(fromRoot(entry))]).toEqual([entry, true]);
    }
  });

  /**
   * The staged bundle of each service function of the sandbox stateless stack: endpoints by name, workers,
   * the delivery consumer and hand-back, the fan-out and the re-drive by construct id.
   */
  const bundlesByFunction = (): Map<string, string> => {
    const stack = synthesised.stages.sandbox.stateless;
    const all = resources(flattenedTemplate(stack));
    const functions = [
      ...stack.api.functions,
      ...stack.pipeline.workers,
      [RENDER_CONTRACTS, stack.pipeline.render] as const,
      [DELIVER, stack.delivery.deliver] as const,
      [HAND_BACK_DELIVERY, stack.delivery.handBack] as const,
      [GIVE_UP_DELIVERY_WAIT, stack.delivery.giveUp] as const,
      [FAN_OUT, stack.delivery.fanOut] as const,
      [PUBLISH_EVENTS, stack.delivery.publish] as const,
      ['RedriveRuns', stack.redrive] as const,
    ];
    return new Map(
      functions.map(([name, fn]) => {
        const code = all[logicalIdOf(stack, fn)]?.Properties?.Code as { S3Key: string };
        return [name, assetPathOf(synthesised, stack.stackName, code.S3Key)];
      }),
    );
  };

  /** The functions whose entries wire the PDF ports: the two uploads and the render consumer. */
  const READS_PDFS = new Set([
    ...ROUTES.filter((route) => route.upload).map((route) => route.name),
    RENDER_CONTRACTS,
  ]);

  /** Bytes of every file under `directory`, its source maps left out (they are never loaded to run). */
  const bytesOf = (directory: string): number =>
    readdirSync(directory, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.name.endsWith('.map'))
      .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);

  it('bundles every function with esbuild into ESM with a `require` and source maps; pdf.js and its files only where PDFs are read', () => {
    const bundles = bundlesByFunction();
    expect(bundles.size).toBe(ROUTES.length + 1 + WORKERS.length + OTHER_ENTRIES.length);
    expect([...READS_PDFS].sort()).toEqual([
      RENDER_CONTRACTS,
      'create-contract-review',
      'create-contract-review-version',
    ]);
    for (const [name, directory] of bundles) {
      const files = readdirSync(directory);
      expect(files).toEqual(expect.arrayContaining(['index.mjs', 'index.mjs.map']));
      const code = readFileSync(join(directory, 'index.mjs'), 'utf8');
      expect(code.startsWith("import { createRequire as __serviceCreateRequire } from 'node:module';")).toBe(
        true,
      );
      // Never inlined: the native package is loaded from node_modules, where there is one.
      expect(code).not.toMatch(/@napi-rs\/canvas-(linux|darwin|win32)/);
      const readsPdfs = READS_PDFS.has(name);
      expect([name, files.includes('pdf.worker.mjs'), code.includes('PDFDataRangeTransport')]).toEqual([
        name,
        readsPdfs,
        readsPdfs,
      ]);
      if (!readsPdfs) continue;
      // What lambdas/adapters/pdf resolves at run time, relative to the bundle.
      const pdfjs = createRequire(join(directory, 'index.mjs')).resolve('pdfjs-dist/package.json');
      expect(pdfjs.startsWith(directory)).toBe(true);
      for (const data of ['standard_fonts', 'cmaps', 'wasm'])
        expect(existsSync(join(dirname(pdfjs), data))).toBe(true);
    }
  });

  it('loads every function’s bundle in a fresh Node process (as Lambda does before the first event), the renderer aside', () => {
    // The renderer's bundle loads @napi-rs/canvas for Linux ARM64, which this machine may not run; its
    // package is checked below. A module that cannot load as ESM (a `__dirname`, a package missing beside
    // the bundle) fails every event of its function, and no other test would see it.
    const failures: string[] = [];
    for (const [name, directory] of bundlesByFunction()) {
      if (name === RENDER_CONTRACTS) continue;
      const url = pathToFileURL(join(directory, 'index.mjs')).href;
      try {
        execFileSync(
          process.execPath,
          ['--input-type=module', '-e', `await import(${JSON.stringify(url)})`],
          {
            env: {
              PATH: process.env.PATH ?? '',
              AWS_REGION: 'eu-west-1',
            },
            stdio: 'pipe',
            timeout: 60_000,
          },
        );
      } catch (error) {
        failures.push(
          `${name}: ${String((error as { stderr?: Buffer }).stderr ?? error)
            .split('\n')
            .slice(0, 6)
            .join(' ')}`,
        );
      }
    }
    expect(failures).toEqual([]);
  });

  it('keeps every function that reads no PDF under 1 MB (index.mjs and the files beside it, source maps aside)', () => {
    const sizes = [...bundlesByFunction()]
      .filter(([name]) => !READS_PDFS.has(name))
      .map(([name, directory]) => ({ name, under1MB: bytesOf(directory) < 1_000_000 }));
    expect(sizes).toEqual(sizes.map(({ name }) => ({ name, under1MB: true })));
  });

  it('installs @napi-rs/canvas with its Linux ARM64 binary beside the rendering worker only', () => {
    const rendering = new Set([RENDER_CONTRACTS]);
    const publishing = new Set<string>(
      WORKERS.filter((worker) => worker.publishesPages).map((worker) => worker.id),
    );
    for (const [name, directory] of bundlesByFunction()) {
      const files = readdirSync(directory).sort();
      if (!rendering.has(name)) {
        const pdfs = READS_PDFS.has(name);
        const beside = pdfs || publishing.has(name) ? ['node_modules'] : [];
        expect([name, files]).toEqual([
          name,
          ['index.mjs', 'index.mjs.map', ...beside, ...(pdfs ? ['pdf.worker.mjs'] : [])],
        ]);
        const modules = [...(publishing.has(name) ? ['@fontsource'] : []), ...(pdfs ? ['pdfjs-dist'] : [])];
        if (modules.length > 0)
          expect([name, readdirSync(join(directory, 'node_modules')).sort()]).toEqual([name, modules]);
        continue;
      }
      // The project's lock file, which `npm ci` needed, is not shipped.
      expect(files).toEqual(['index.mjs', 'index.mjs.map', 'node_modules', 'package.json', 'pdf.worker.mjs']);
      expect(readdirSync(join(directory, 'node_modules', '@napi-rs')).sort()).toEqual([
        'canvas',
        'canvas-linux-arm64-gnu',
      ]);
      const canvas = createRequire(join(directory, 'index.mjs')).resolve('@napi-rs/canvas/package.json');
      expect(JSON.parse(readFileSync(canvas, 'utf8')).version).toBe(
        JSON.parse(readFileSync(fromRoot('package.json'), 'utf8')).dependencies['@napi-rs/canvas'],
      );
      // An ELF shared object for AArch64 (e_machine 183), which Lambda's arm64 runtime loads.
      const binary = readFileSync(
        join(directory, 'node_modules/@napi-rs/canvas-linux-arm64-gnu/skia.linux-arm64-gnu.node'),
      );
      expect(binary.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
      expect(binary.readUInt16LE(18)).toBe(183);
      // The CJK fallback face, found from the bundle as in the repository: its one file, not the package.
      const face = dirname(
        createRequire(join(directory, 'index.mjs')).resolve(`${CJK_FACE_PACKAGE}/package.json`),
      );
      expect(face.startsWith(directory)).toBe(true);
      expect(readdirSync(join(face, 'files'))).toEqual([CJK_FACE_FILE.replace('files/', '')]);
    }
  });

  it('ships the text layer font files beside the page publishers only, found from the bundle as in the repository', () => {
    const publishing = WORKERS.filter((worker) => worker.publishesPages).map((worker) => worker.id);
    expect(publishing).toEqual(['PublishViewer', 'PublishReview']);
    const bundles = bundlesByFunction();
    for (const name of publishing) {
      const directory = bundles.get(name);
      if (!directory) throw new Error(`no bundle for ${name}`);
      const root = dirname(
        createRequire(join(directory, 'index.mjs')).resolve(`${TEXT_LAYER_FONT_DATA.package}/package.json`),
      );
      expect(root.startsWith(directory)).toBe(true);
      expect(readdirSync(join(root, 'files')).sort()).toEqual(
        TEXT_LAYER_FONT_DATA.subsets.map((subset) => subset.file).sort(),
      );
      for (const subset of TEXT_LAYER_FONT_DATA.subsets)
        expect(readFileSync(join(root, 'files', subset.file))).toEqual(
          readFileSync(join(fontPackageRoot(), 'files', subset.file)),
        );
    }
  });

  it('stages the ingest image from ingest/Dockerfile for ARM64, without node_modules, cdk.out, .data, .git or test results', () => {
    const { manifest, directory: base } = assetManifestOf(synthesised, 'contract-service-sandbox-stateless');
    const images = Object.values(manifest.dockerImages);
    expect(images).toHaveLength(1);
    const [image] = images;
    expect(image?.source).toMatchObject({ dockerFile: INGEST_DOCKERFILE, platform: 'linux/arm64' });
    const context = readdirSync(join(base, image?.source.directory ?? 'missing'));
    expect(context).toEqual(
      expect.arrayContaining(['package.json', 'package-lock.json', 'bin', 'lambdas', 'ingest', 'patches']),
    );
    // `npm ci --ignore-scripts` skips the postinstall that patches pdf.js: the Dockerfile applies it.
    expect(
      readFileSync(join(base, image?.source.directory ?? 'missing', 'ingest/Dockerfile'), 'utf8'),
    ).toMatch(/^RUN node node_modules\/patch-package\/index\.js --error-on-fail$/m);
    for (const excluded of ['node_modules', 'cdk.out', '.data', '.git', 'test-results', 'coverage']) {
      expect(context).not.toContain(excluded);
    }
  });
});
