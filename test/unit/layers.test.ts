// unit -> imports point one way: each layer imports only the layers below it (test/support/layers.ts),
// and the core imports no AWS SDK and no HTTP.
import { fileURLToPath } from 'node:url';
import { repositorySources, wrongImports } from '../support/layers';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('layers', () => {
  test('no import of the repository points the wrong way', () => {
    const sources = repositorySources(ROOT);
    // The scan does read the repository: every layer has files.
    const layers = [
      'lambdas/core',
      'lambdas/adapters',
      'lambdas/api',
      'lambdas/pages',
      'lambdas/workers',
      'lambdas/identity-provider',
      'lambdas/identity-provider/pages',
      'lambdas/portal',
      'lambdas/hosts',
      'lambdas/hosts/queue-consumers',
      'local',
      'local/emulators',
      'frontend/onboarding',
      'frontend/portal',
      'frontend/back-office',
      'frontend/app-kit',
      'lib',
      'bin',
    ];
    expect(
      layers.filter((layer) => ![...sources.keys()].some((file) => file.startsWith(`${layer}/`))),
    ).toEqual([]);
    expect(sources.size).toBeGreaterThan(200);
    expect(wrongImports(sources)).toEqual([]);
  });

  test.each([
    [
      'the core importing an adapter',
      'lambdas/core/x.ts',
      "import { composePorts } from '../adapters/compose';",
      'lambdas/core/x.ts -> lambdas/adapters/compose.ts',
    ],
    [
      'the core importing the AWS SDK',
      'lambdas/core/x.ts',
      "import { S3Client } from '@aws-sdk/client-s3';",
      'lambdas/core/x.ts -> @aws-sdk/client-s3',
    ],
    [
      'an endpoint importing a host',
      'lambdas/api/x.ts',
      "export { awsServices } from '../hosts/aws/services';",
      'lambdas/api/x.ts -> lambdas/hosts/aws/services.ts',
    ],
    [
      'a worker loading an adapter lazily',
      'lambdas/workers/x.ts',
      "const m = () => import('../adapters/pdf/pdfjs-renderer');",
      'lambdas/workers/x.ts -> lambdas/adapters/pdf/pdfjs-renderer.ts',
    ],
    [
      'an adapter importing the API',
      'lambdas/adapters/x.ts',
      "import type { Endpoint } from '../api/http/endpoint';",
      'lambdas/adapters/x.ts -> lambdas/api/http/endpoint.ts',
    ],
    [
      'the identity provider importing an adapter',
      'lambdas/identity-provider/x.ts',
      "import { DynamoDbPeopleStore } from '../adapters/dynamodb/people-store';",
      'lambdas/identity-provider/x.ts -> lambdas/adapters/dynamodb/people-store.ts',
    ],
    [
      'a sign-in page importing a hosted page beyond its escaping',
      'lambdas/identity-provider/pages/x.ts',
      "import { renderViewer } from '../../pages/viewer';",
      'lambdas/identity-provider/pages/x.ts -> lambdas/pages/viewer.ts',
    ],
    [
      'a hosted page importing a front end',
      'lambdas/pages/x.ts',
      "import { App } from '../../frontend/portal/app/main';",
      'lambdas/pages/x.ts -> frontend/portal/app/main.ts',
    ],
    [
      "a deployed function importing a front end's build",
      'lambdas/hosts/aws/functions/x.ts',
      "import { buildPortalAssets } from '../../../../frontend/portal/build';",
      'lambdas/hosts/aws/functions/x.ts -> frontend/portal/build.ts',
    ],
    [
      "the portal's backend importing its pages' code",
      'lambdas/portal/x.ts',
      "import { get } from '../../frontend/app-kit/api';",
      'lambdas/portal/x.ts -> frontend/app-kit/api.ts',
    ],
    [
      'the CDK app importing a host',
      'lib/x.ts',
      "import { apiListener } from '../lambdas/hosts/api-host';",
      'lib/x.ts -> lambdas/hosts/api-host.ts',
    ],
    [
      'the CDK app importing the local stack',
      'lib/x.ts',
      "import { startLocalStack } from '../local/stack';",
      'lib/x.ts -> local/stack.ts',
    ],
    [
      'a deployed function importing an emulator',
      'lambdas/hosts/aws/functions/x.ts',
      "import { startLocalS3 } from '../../../../local/emulators/s3-server';",
      'lambdas/hosts/aws/functions/x.ts -> local/emulators/s3-server.ts',
    ],
    [
      'an adapter importing the local wiring',
      'lambdas/adapters/x.ts',
      "import { localServices } from '../../local/wiring';",
      'lambdas/adapters/x.ts -> local/wiring.ts',
    ],
    [
      'the upload ingest importing the local stack',
      'bin/ingest.ts',
      "import { localServices } from '../local/wiring';",
      'bin/ingest.ts -> local/wiring.ts',
    ],
    [
      'an emulator importing a test helper',
      'local/emulators/x.ts',
      "import { eventually } from '../../test/support/eventually';",
      'local/emulators/x.ts -> test/support/eventually.ts',
    ],
  ])('a planted wrong import is found: %s', (_, file, source, edge) => {
    expect(wrongImports(new Map([[file, source]]))).toEqual([edge]);
  });

  test('imports the layers allow pass: a host wiring adapters, the local stack over the deployed code, a worker publishing pages, the core itself', () => {
    const files = new Map([
      ['lambdas/hosts/x.ts', "import { composePorts } from '../adapters/compose';"],
      [
        'local/x.ts',
        "import { apiListener } from '../lambdas/hosts/api-host';\nimport { a } from './emulators/sqs';",
      ],
      ['bin/local.ts', "import { startLocalStack } from '../local/stack';"],
      [
        'lambdas/workers/x.ts',
        "import { renderViewer } from '../pages/viewer';\nimport { ids } from '../core/ids';",
      ],
      ['lambdas/core/x.ts', "import { ServiceError } from './errors';\nimport * as z from 'zod/mini';"],
    ]);
    expect(wrongImports(files)).toEqual([]);
  });
});
