// adapters -> a stored blob whose bytes stop coming part-way (the connection to S3 resets, or closes
// early) is a dependency fault, DependencyUnavailable, which a workflow retries: not a bug, not a
// damaged PDF (the Process step does not mark the contract failed for it). Against a server that
// answers GetObject's headers and then cuts the body.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3BlobStore } from '../../lambdas/adapters/blobs/s3-blob-store';
import { createS3Client } from '../../lambdas/adapters/blobs/s3-client';
import { PdfjsRenderer } from '../../lambdas/adapters/pdf/pdfjs-renderer';
import { translatingFaults } from '../../lambdas/adapters/unavailable';
import { DependencyUnavailable, isDependencyUnavailable } from '../../lambdas/core/errors';
import { RenderFailed } from '../../lambdas/core/rendered-contract';

/** How the server ends a range's body after its first 10 bytes: a reset, or a clean close. */
type Cut = 'reset' | 'close';

let server: Server;
let cut: Cut = 'reset';

beforeAll(async () => {
  server = createServer((request, response) => {
    const [, start = '0', end = '0'] = /bytes=(\d+)-(\d+)/.exec(request.headers.range ?? '') ?? [];
    const length = Number(end) - Number(start) + 1;
    response.writeHead(206, {
      'Content-Type': 'application/pdf',
      'Content-Length': String(length),
      'Content-Range': `bytes ${start}-${end}/${length * 4}`,
    });
    response.write(new Uint8Array(10), () => {
      if (cut === 'reset') response.socket?.resetAndDestroy();
      else response.socket?.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The blob store as the service composes it (faults translated), against the cutting server. */
const cutBlobs = () => {
  const { port } = server.address() as AddressInfo;
  const client = createS3Client({ region: 'us-east-1', endpoint: `http://127.0.0.1:${port}` });
  return { client, blobs: translatingFaults(new S3BlobStore({ client, bucket: 'contracts' })) };
};

test.each<Cut>(['reset', 'close'])(
  'a range read cut part-way by a connection %s is DependencyUnavailable',
  async (how) => {
    cut = how;
    const { client, blobs } = cutBlobs();
    try {
      const error = await blobs.readRange('uploads/crv_1/v1.pdf', 0, 65_536).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DependencyUnavailable);
    } finally {
      client.destroy();
    }
  },
);

test('a render whose PDF stops coming fails with the dependency fault behind it, for the Process step to retry', async () => {
  cut = 'reset';
  const { client, blobs } = cutBlobs();
  try {
    const error = await new PdfjsRenderer(blobs, { threads: 0 })
      .render({
        contractReviewId: 'crv_1',
        version: 1,
        pdfKey: 'uploads/crv_1/v1.pdf',
        pdfSize: 300_000,
        outputPrefix: 'renders/crv_1/v1/',
        deadline: Date.now() + 600_000,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RenderFailed);
    expect(error).toMatchObject({ message: 'The PDF could not be read from the blob store.' });
    expect(isDependencyUnavailable(error)).toBe(true);
  } finally {
    client.destroy();
  }
});
