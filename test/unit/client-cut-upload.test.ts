// unit -> the typed client sends an upload again when its connection is cut before an answer (a server
// that refused early and closed while the body was still going), with the same Idempotency-Key and the
// same bytes; and gives up after its attempts. Against a plain Node server that cuts the first uploads.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContractServiceClient } from '../../clients/typescript/src/index';

interface Received {
  key: string | undefined;
  digest: string;
}

/** A stand-in API: tokens for any key; the first `cuts` uploads cut after 1 KiB, the rest answered 202. */
const startApi = async (cuts: number) => {
  const uploads: Received[] = [];
  let cut = 0;
  const server: Server = createServer((request, response) => {
    if (request.url === '/v1/token') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ access_token: 'token', token_type: 'Bearer', expires_in: 900 }));
      return;
    }
    if (cut < cuts) {
      cut++;
      request.once('data', () => request.socket.destroy());
      return;
    }
    const hash = createHash('sha256');
    request.on('data', (chunk: Buffer) => hash.update(chunk));
    request.on('end', () => {
      uploads.push({ key: request.headers['idempotency-key'] as string, digest: hash.digest('base64') });
      response.writeHead(202, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ id: 'crv_1', publications: [] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const client = new ContractServiceClient({
    apiKey: 'svc_test_x',
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  });
  return { client, uploads, close: () => new Promise((resolve) => server.close(resolve)) };
};

const file = { bytes: new Uint8Array(4 * 1024 * 1024).fill(37) };
const request = { external_reference: 'sale-1', product: 'contract_viewer' as const };

test('an upload cut short is sent again, whole, with the same key', async () => {
  const api = await startApi(2);
  try {
    const sent = await api.client.contractReviews.create(request, file, { idempotencyKey: 'key-1' });
    expect(sent.status).toBe(202);
    expect(api.uploads).toEqual([{ key: 'key-1', digest: expect.any(String) }]);
  } finally {
    await api.close();
  }
});

test('an upload cut short on every attempt fails with the connection error', async () => {
  const api = await startApi(3);
  try {
    await expect(api.client.contractReviews.create(request, file)).rejects.toMatchObject({
      code: expect.stringMatching(/^(EPIPE|ECONNRESET)$/),
    });
    expect(api.uploads).toEqual([]);
  } finally {
    await api.close();
  }
});
