// test support -> the layers of the code and the directions their imports may take: one table, read by
// the layer test (test/unit/layers.test.ts) and listed in the README's layout section.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

/** A layer: the folder it is, and what it may import besides itself and npm packages. */
interface Layer {
  folder: string;
  mayImport: readonly string[];
  /** Packages it may not import (the core holds no AWS and no HTTP). */
  forbiddenPackages?: readonly RegExp[];
}

/** The OpenID Connect client both sign-ins (the portal's, the provider's upstream) are made with. */
const OIDC_DISCOVERY = 'lambdas/adapters/oidc-discovery.ts';

/** Most specific folder first. */
export const LAYERS: readonly Layer[] = [
  {
    folder: 'lambdas/core',
    mayImport: [],
    forbiddenPackages: [/^@aws-sdk\//, /^@smithy\//, /^aws-lambda$/, /^node:https?$/],
  },
  { folder: 'lambdas/adapters', mayImport: ['lambdas/core'] },
  { folder: 'lambdas/api', mayImport: ['lambdas/core'] },
  // The hosted pages the workers publish (and the pages host answers with): HTML made on the server.
  { folder: 'lambdas/pages', mayImport: ['lambdas/core'] },
  { folder: 'lambdas/workers', mayImport: ['lambdas/core', 'lambdas/pages'] },
  // oidc-provider configured with the core's people, and the pages of a sign-in it serves (pages/), which
  // share the hosted pages' HTML escaping and the one look of the pages people sign in to.
  {
    folder: 'lambdas/identity-provider',
    mayImport: ['lambdas/core', 'lambdas/pages/html.ts', 'lambdas/pages/look.ts', OIDC_DISCOVERY],
  },
  // The portal's backend: the core, the API's one answer shape, and how its built pages are served.
  {
    folder: 'lambdas/portal',
    mayImport: [
      'lambdas/core',
      'lambdas/api/http/answer.ts',
      'lambdas/api/http/body.ts',
      'lambdas/api/http/cookies.ts',
      'lambdas/api/http/router.ts',
      'lambdas/api/http/served-files.ts',
      OIDC_DISCOVERY,
    ],
  },
  // The back office's backend: as the portal's, and the portal's cookies, sign-in and session guard, which it
  // reuses with a cookie and session records of its own.
  {
    folder: 'lambdas/back-office',
    mayImport: [
      'lambdas/core',
      'lambdas/api/http/answer.ts',
      'lambdas/api/http/body.ts',
      'lambdas/api/http/cookies.ts',
      'lambdas/portal/cookies.ts',
      'lambdas/portal/sign-in.ts',
      'lambdas/portal/session-secrets.ts',
      'lambdas/portal/sign-in-routes.ts',
      'lambdas/portal/session-guard.ts',
      'lambdas/api/http/served-files.ts',
      OIDC_DISCOVERY,
    ],
  },
  // The MCP server: the SDK's server over the core's functions, the portal's tasks as tools, routed as the
  // API's paths are.
  { folder: 'lambdas/mcp', mayImport: ['lambdas/core', 'lambdas/api/http/router.ts'] },
  // Deployed composition roots (Lambda entries, the Node HTTP host the ingest shares, the queue consumers):
  // everything deployed, never local/ and never the front ends (nothing in lambdas/ imports frontend/).
  { folder: 'lambdas/hosts', mayImport: ['lambdas'] },
  // The local stack and the AWS stand-ins it and the tests run (S3, DynamoDB Local, SQS, EventBridge,
  // Step Functions): on top of everything deployed, and imported by nothing that is.
  { folder: 'local', mayImport: ['lambdas', 'frontend'] },
  { folder: 'frontend/onboarding', mayImport: ['lambdas/core', 'frontend/build-output.ts'] },
  // The portal's pages talk to their backend over HTTP only; its build is the kit's. They
  // read the answers' types from the core's schemas, type-only (test/unit/shapes.test.ts checks it).
  {
    folder: 'frontend/portal',
    mayImport: ['frontend/app-kit', 'lambdas/core/shapes.ts', 'lambdas/api/http/served-files.ts'],
  },
  // The back office's pages: as the portal's, and the hosted pages' Markdown (a review's preview renders
  // as its page will).
  {
    folder: 'frontend/back-office',
    mayImport: [
      'frontend/app-kit',
      'lambdas/core/shapes.ts',
      'lambdas/core/back-office/shapes.ts',
      'lambdas/pages/markdown.ts',
      'lambdas/api/http/served-files.ts',
    ],
  },
  // What the web applications share: their build, serving, API calls, navigation and components.
  {
    folder: 'frontend/app-kit',
    mayImport: ['frontend/build-output.ts', 'lambdas/pages/look.ts', 'lambdas/api/http/served-files.ts'],
  },
  // What the front ends' builds share.
  { folder: 'frontend/build-output.ts', mayImport: [] },
  // The CDK app reads the route tables, the table schema, the workflow tasks' declarations (data only), the
  // hosted pages' headers and font, and the built frontend; never a host or a worker.
  {
    folder: 'lib',
    mayImport: [
      'lambdas/core',
      'lambdas/api',
      'lambdas/adapters',
      'lambdas/pages',
      'lambdas/workers/tasks.ts',
      'frontend',
    ],
  },
  // The upload ingest's container (lib/upload-ingest.ts) is deployed: the deployed hosts, never local/.
  { folder: 'bin/ingest.ts', mayImport: ['lambdas', 'frontend'] },
  // The local stack's command, the deploy scripts, and the operator tool, which sends contracts as an
  // integrator does, through the typed client.
  { folder: 'bin', mayImport: ['lambdas', 'local', 'frontend', 'lib', 'clients/typescript'] },
];

const layerOf = (file: string): Layer | undefined =>
  LAYERS.find((layer) => file === layer.folder || file.startsWith(`${layer.folder}/`));

const within = (file: string, folder: string) => file === folder || file.startsWith(`${folder}/`);

/** The module specifiers `source` imports or re-exports, dynamic imports included. */
export const importsOf = (source: string): string[] =>
  ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);

/** A relative specifier of `file` as a repository path with `.ts` (index files as written). */
const resolveRelative = (file: string, specifier: string): string => {
  const path = normalize(join(dirname(file), specifier));
  return /\.(ts|mjs|js|css|json)$/.test(path) ? path : `${path}.ts`;
};

/** Every import of `files` (repository path to source) that its layer does not allow. */
export const wrongImports = (files: ReadonlyMap<string, string>): string[] => {
  const wrong: string[] = [];
  for (const [file, source] of files) {
    const layer = layerOf(file);
    if (!layer) continue;
    for (const specifier of importsOf(source)) {
      if (!specifier.startsWith('.')) {
        if (layer.forbiddenPackages?.some((pattern) => pattern.test(specifier)))
          wrong.push(`${file} -> ${specifier}`);
        continue;
      }
      const target = resolveRelative(file, specifier);
      if (within(target, layer.folder)) continue;
      if (!layer.mayImport.some((folder) => within(target, folder))) wrong.push(`${file} -> ${target}`);
    }
  }
  return wrong;
};

/** The TypeScript sources of the repository's layers, by repository path. */
export const repositorySources = (root: string): Map<string, string> => {
  const files = new Map<string, string>();
  // Each top folder once (lambdas/ holds several layers, frontend/ several, bin/ two).
  const tops = new Set(LAYERS.map((layer) => layer.folder.split('/')[0] ?? layer.folder));
  for (const top of tops) {
    for (const entry of readdirSync(join(root, top), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts')) continue;
      const path = relative(root, join(entry.parentPath, entry.name)).split('\\').join('/');
      if (path.includes('node_modules') || path.includes('/dist')) continue;
      files.set(path, readFileSync(join(root, path), 'utf8'));
    }
  }
  return files;
};
