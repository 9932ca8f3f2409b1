// unit -> the withdrawal gate (lambdas/workers/withdrawal-gate.ts): which slug a marker key is, put or
// delete as the bucket has the marker, and the conditional (ETag) retry, over fake ports that fail as
// the adapter does; then its ports over the real SDK clients (adapters/cloudfront/withdrawal-gate-ports.ts),
// whose HTTP handler is a fake.
import { ValidationException } from '@aws-sdk/client-cloudfront-keyvaluestore';
import { sdkPorts } from '../../lambdas/adapters/cloudfront/withdrawal-gate-ports';
import { ConcurrentChange } from '../../lambdas/core/errors';
import { withdrawnKey } from '../../lambdas/core/publications';
import type { GatePorts, KeyValueStore } from '../../lambdas/core/withdrawal-gate-ports';
import {
  backfillWithdrawals,
  slugOfMarker,
  syncWithdrawal,
  writeWithEtag,
} from '../../lambdas/workers/withdrawal-gate';
import { type Answer, bodyText, fakeSdkEdge } from '../support/sdk-edge';

const BUCKET = 'contract-service-blobs';

/** The ports' answer to a write whose ETag is stale. */
const conflict = () => new ConcurrentChange('the withdrawn slugs store');

/** A key value store in memory whose version moves on each write, and on `interfere` reads. */
class MemoryStore implements KeyValueStore {
  readonly keys = new Map<string, string>();
  version = 1;
  /** How many of the next ETag reads another writer follows before this one writes. */
  interfere = 0;
  writes = 0;
  async etag(): Promise<string> {
    const etag = `KV${this.version}`;
    if (this.interfere > 0) {
      this.interfere--;
      this.version++;
    }
    return etag;
  }
  private check(ifMatch: string): void {
    this.writes++;
    if (ifMatch !== `KV${this.version}`) throw conflict();
    this.version++;
  }
  async put(key: string, value: string, ifMatch: string): Promise<void> {
    this.check(ifMatch);
    this.keys.set(key, value);
  }
  async delete(key: string, ifMatch: string): Promise<void> {
    this.check(ifMatch);
    this.keys.delete(key);
  }
}

const setup = (markers: string[] = []) => {
  const store = new MemoryStore();
  const present = new Set(markers);
  const invalidations: { paths: string[]; reference: string }[] = [];
  const pauses: number[] = [];
  const ports: GatePorts = {
    bucket: BUCKET,
    markerPresent: async (key) => present.has(slugOfMarker(key) ?? ''),
    store,
    invalidate: async (paths, reference) => {
      invalidations.push({ paths, reference });
    },
    pause: async (milliseconds) => {
      pauses.push(milliseconds);
    },
  };
  return { store, present, invalidations, pauses, ports };
};

/** An S3 object event as EventBridge delivers it. */
const s3Event = (
  type: 'Object Created' | 'Object Deleted',
  key: string,
  { id = 'a1b2c3d4-0000-4000-8000-000000000001', bucket = BUCKET } = {},
) => ({
  version: '0',
  id,
  'detail-type': type,
  source: 'aws.s3',
  account: '123456789012',
  time: '2025-01-01T00:00:00Z',
  region: 'eu-west-1',
  resources: [`arn:aws:s3:::${bucket}`],
  detail: {
    version: '0',
    bucket: { name: bucket },
    object: { key, size: 10, etag: 'e', sequencer: '00' },
    'request-id': 'r',
    requester: '123456789012',
    reason: type === 'Object Created' ? 'PutObject' : 'DeleteObject',
  },
});

describe('slugOfMarker', () => {
  it('is the slug of a publication’s withdrawal marker, and null for any other key', () => {
    expect(slugOfMarker(withdrawnKey('abc_D-9'))).toBe('abc_D-9');
    expect(slugOfMarker('published/abc/withdrawn')).toBe('abc');
    for (const key of [
      'published/abc/index.html',
      'published/abc/v1/withdrawn',
      'published/a.b/withdrawn',
      'published//withdrawn',
      'uploads/abc/withdrawn',
      'published/abc/withdrawn/x',
      `published/${'a'.repeat(129)}/withdrawn`,
    ]) {
      expect([key, slugOfMarker(key)]).toEqual([key, null]);
    }
  });
});

describe('syncWithdrawal', () => {
  it('puts the slug into the store when its marker is there, and invalidates all its files', async () => {
    const { store, invalidations, ports } = setup(['abc']);
    await expect(
      syncWithdrawal(s3Event('Object Created', 'published/abc/withdrawn'), ports),
    ).resolves.toEqual({
      slug: 'abc',
      withdrawn: true,
    });
    expect([...store.keys]).toEqual([['abc', 'withdrawn']]);
    expect(invalidations).toEqual([
      { paths: ['/abc/*'], reference: 'withdrawal-gate-a1b2c3d4-0000-4000-8000-000000000001-put' },
    ]);
  });

  it('deletes the slug from the store when its marker is gone, and invalidates all its files', async () => {
    const { store, invalidations, ports } = setup();
    store.keys.set('abc', 'withdrawn');
    store.keys.set('other', 'withdrawn');
    await expect(
      syncWithdrawal(s3Event('Object Deleted', 'published/abc/withdrawn'), ports),
    ).resolves.toEqual({
      slug: 'abc',
      withdrawn: false,
    });
    expect([...store.keys.keys()]).toEqual(['other']);
    expect(invalidations.map((invalidation) => invalidation.paths)).toEqual([['/abc/*']]);
  });

  it('follows the bucket, not the event: late or reordered events leave the store as the markers are', async () => {
    // Withdrawn, then published again (marker deleted), the creation event delivered last.
    const republished = setup();
    await syncWithdrawal(
      s3Event('Object Deleted', 'published/abc/withdrawn', { id: 'e2' }),
      republished.ports,
    );
    await syncWithdrawal(
      s3Event('Object Created', 'published/abc/withdrawn', { id: 'e1' }),
      republished.ports,
    );
    expect(republished.store.keys.has('abc')).toBe(false);
    // Published again, then withdrawn again, the deletion event delivered last.
    const rewithdrawn = setup(['abc']);
    await syncWithdrawal(
      s3Event('Object Created', 'published/abc/withdrawn', { id: 'e2' }),
      rewithdrawn.ports,
    );
    await syncWithdrawal(
      s3Event('Object Deleted', 'published/abc/withdrawn', { id: 'e1' }),
      rewithdrawn.ports,
    );
    expect(rewithdrawn.store.keys.get('abc')).toBe('withdrawn');
  });

  it('is harmless repeated (a retried event puts or deletes again, under the same invalidation reference)', async () => {
    const { store, invalidations, ports } = setup(['abc']);
    const event = s3Event('Object Created', 'published/abc/withdrawn');
    await syncWithdrawal(event, ports);
    await syncWithdrawal(event, ports);
    expect([...store.keys]).toEqual([['abc', 'withdrawn']]);
    expect(new Set(invalidations.map((invalidation) => invalidation.reference)).size).toBe(1);
    const deleted = setup();
    await syncWithdrawal(s3Event('Object Deleted', 'published/abc/withdrawn'), deleted.ports);
    await syncWithdrawal(s3Event('Object Deleted', 'published/abc/withdrawn'), deleted.ports);
    expect(deleted.store.keys.size).toBe(0);
  });

  it('ignores keys that are no withdrawal marker, and refuses events of another bucket or kind', async () => {
    const { store, invalidations, ports } = setup(['abc']);
    await expect(
      syncWithdrawal(s3Event('Object Created', 'published/a/b/withdrawn'), ports),
    ).resolves.toEqual({
      ignored: 'not a withdrawal marker',
    });
    await expect(
      syncWithdrawal(s3Event('Object Created', 'published/abc/withdrawn', { bucket: 'elsewhere' }), ports),
    ).rejects.toThrow('an event of bucket elsewhere');
    await expect(
      syncWithdrawal({ ...s3Event('Object Created', 'published/abc/withdrawn'), source: 'aws.sqs' }, ports),
    ).rejects.toThrow('not an S3 object event');
    await expect(
      syncWithdrawal(
        {
          ...s3Event('Object Created', 'published/abc/withdrawn'),
          'detail-type': 'Object Restore Completed',
        },
        ports,
      ),
    ).rejects.toThrow('not an S3 object event');
    expect(store.writes).toBe(0);
    expect(invalidations).toEqual([]);
  });

  it('does not invalidate when the store cannot be written (the event fails, and is retried)', async () => {
    const { store, invalidations, ports } = setup(['abc']);
    store.interfere = 100;
    await expect(
      syncWithdrawal(s3Event('Object Created', 'published/abc/withdrawn'), ports),
    ).rejects.toBeInstanceOf(ConcurrentChange);
    expect(invalidations).toEqual([]);
  });
});

describe('backfillWithdrawals', () => {
  /** The backfill's ports: the keys the bucket lists under published/, and the store. */
  const backfillSetup = (keys: string[]) => {
    const { store, pauses, ports } = setup();
    const markerKeys = async function* () {
      yield* keys;
    };
    return { store, pauses, ports: { store: ports.store, pause: ports.pause, markerKeys } };
  };

  it('puts the slug of every marker into the store, and nothing for keys that only look like one', async () => {
    const { store, ports } = backfillSetup([
      withdrawnKey('abc'),
      'published/abc/v1/withdrawn',
      withdrawnKey('xyz_9'),
      'published/a.b/withdrawn',
    ]);
    store.keys.set('kept', 'withdrawn');
    await expect(backfillWithdrawals(ports)).resolves.toEqual({ withdrawn: ['abc', 'xyz_9'] });
    expect([...store.keys.keys()].sort()).toEqual(['abc', 'kept', 'xyz_9']);
  });

  it('is harmless repeated, and retries a write another writer raced (the gate handling an event meanwhile)', async () => {
    const { store, pauses, ports } = backfillSetup([withdrawnKey('abc')]);
    store.interfere = 1;
    await backfillWithdrawals(ports);
    await backfillWithdrawals(ports);
    expect([...store.keys]).toEqual([['abc', 'withdrawn']]);
    expect(pauses).toHaveLength(1);
  });

  it('writes nothing when no publication was withdrawn', async () => {
    const { store, ports } = backfillSetup(['published/abc/index.html']);
    await expect(backfillWithdrawals(ports)).resolves.toEqual({ withdrawn: [] });
    expect(store.writes).toBe(0);
  });
});

describe('writeWithEtag', () => {
  it('reads the ETag again and retries, after a growing pause, while another writer moved the store', async () => {
    const { store, pauses, ports } = setup();
    store.interfere = 2;
    await writeWithEtag(ports, (ifMatch) => store.put('abc', 'withdrawn', ifMatch));
    expect(store.keys.get('abc')).toBe('withdrawn');
    expect(store.writes).toBe(3);
    expect(pauses).toHaveLength(2);
    expect(pauses[1]).toBeGreaterThan(0);
  });

  it('gives up after its attempts, with the ports’ ConcurrentChange', async () => {
    const { store, pauses, ports } = setup();
    store.interfere = 100;
    await expect(writeWithEtag(ports, (ifMatch) => store.put('abc', 'x', ifMatch), 5)).rejects.toBeInstanceOf(
      ConcurrentChange,
    );
    expect(store.writes).toBe(5);
    expect(pauses).toHaveLength(4);
  });

  it('does not retry any other error', async () => {
    const { pauses, ports } = setup();
    for (const error of [
      new ValidationException({ message: 'Validation failed', $metadata: { httpStatusCode: 400 } }),
      new Error('AccessDenied'),
    ]) {
      let calls = 0;
      await expect(
        writeWithEtag(ports, async () => {
          calls++;
          throw error;
        }),
      ).rejects.toBe(error);
      expect(calls).toBe(1);
    }
    expect(pauses).toEqual([]);
  });
});

const ARN = 'arn:aws:cloudfront::123456789012:key-value-store/0f1e2d3c-aaaa-bbbb-cccc-0123456789ab';
const STORE_PATH = `/key-value-stores/${encodeURIComponent(ARN)}`;

/**
 * The gate's ports over the real SDK clients, their HTTP handler answering each request with the next of
 * `answers` and recording it: what the SDK sends and how it reads the answers, with nothing on the network.
 */
const overSdk = async (...answers: Answer[]) => {
  const { requests, options } = fakeSdkEdge(...answers);
  const config = {
    WITHDRAWN_SLUGS_STORE_ARN: ARN,
    PAGES_DISTRIBUTION_ID: 'E2ABCDEF123456',
    BLOB_BUCKET: BUCKET,
    AWS_REGION: 'eu-west-1',
  };
  return { requests, ports: await sdkPorts(config, options) };
};

const kvsError = (status: number, type: string): Answer => ({
  status,
  headers: { 'content-type': 'application/json', 'x-amzn-errortype': type },
  body: '{"Message":"m"}',
});

describe('sdkPorts', () => {
  it('sees a marker by listing its own key, the current versions only', async () => {
    const listing = (...keys: string[]): Answer => ({
      status: 200,
      headers: { 'content-type': 'application/xml' },
      body: `<ListBucketResult>${keys.map((key) => `<Contents><Key>${key}</Key></Contents>`).join('')}</ListBucketResult>`,
    });
    const { requests, ports } = await overSdk(listing('published/abc/withdrawn'), listing());
    await expect(ports.markerPresent(withdrawnKey('abc'))).resolves.toBe(true);
    await expect(ports.markerPresent(withdrawnKey('abc'))).resolves.toBe(false);
    expect(requests[0]).toMatchObject({
      method: 'GET',
      hostname: `${BUCKET}.s3.eu-west-1.amazonaws.com`,
      query: { 'list-type': '2', prefix: 'published/abc/withdrawn', 'max-keys': '1' },
    });
  });

  it('lists the marker keys of the whole published folder, page after page', async () => {
    const page = (keys: string[], next?: string): Answer => ({
      status: 200,
      headers: { 'content-type': 'application/xml' },
      body: `<ListBucketResult>${keys.map((key) => `<Contents><Key>${key}</Key></Contents>`).join('')}${next ? `<IsTruncated>true</IsTruncated><NextContinuationToken>${next}</NextContinuationToken>` : '<IsTruncated>false</IsTruncated>'}</ListBucketResult>`,
    });
    const { requests, ports } = await overSdk(
      page(['published/abc/index.html', 'published/abc/withdrawn'], 'token-2'),
      page(['published/def/v1/page-1.png', 'published/xyz/withdrawn']),
    );
    const keys: string[] = [];
    for await (const key of ports.markerKeys()) keys.push(key);
    expect(keys).toEqual(['published/abc/withdrawn', 'published/xyz/withdrawn']);
    expect(requests.map((request) => request.query)).toEqual([
      expect.objectContaining({ 'list-type': '2', prefix: 'published/' }),
      expect.objectContaining({ 'list-type': '2', prefix: 'published/', 'continuation-token': 'token-2' }),
    ]);
  });

  it('reads the store’s ETag and writes under it, signed with SigV4A for every region', async () => {
    const { requests, ports } = await overSdk(
      { status: 200, headers: { 'content-type': 'application/json', etag: 'KV1' }, body: '{}' },
      { status: 200, headers: { 'content-type': 'application/json', etag: 'KV2' }, body: '{}' },
      { status: 200, headers: { 'content-type': 'application/json', etag: 'KV3' }, body: '{}' },
    );
    await expect(ports.store.etag()).resolves.toBe('KV1');
    await ports.store.put('abc', 'withdrawn', 'KV1');
    await ports.store.delete('abc', 'KV2');
    expect(
      requests.map((request) => [request.method, request.path, request.headers['if-match'] ?? null]),
    ).toEqual([
      ['GET', STORE_PATH, null],
      ['PUT', `${STORE_PATH}/keys/abc`, 'KV1'],
      ['DELETE', `${STORE_PATH}/keys/abc`, 'KV2'],
    ]);
    expect(JSON.parse(bodyText(requests[1]?.body))).toEqual({ Value: 'withdrawn' });
    for (const request of requests) {
      expect(request.hostname).toBe('123456789012.cloudfront-kvs.global.api.aws');
      expect(request.headers['x-amz-region-set']).toBe('*');
      expect(request.headers.authorization).toMatch(
        /^AWS4-ECDSA-P256-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/cloudfront-keyvaluestore\/aws4_request, /,
      );
    }
  });

  it('raises a write refused for a stale ETag (ConflictException) as ConcurrentChange, retried under a fresh one, and counts a key already gone as deleted', async () => {
    const etag = (value: string): Answer => ({
      status: 200,
      headers: { 'content-type': 'application/json', etag: value },
      body: '{}',
    });
    const { requests, ports } = await overSdk(
      etag('KV1'),
      kvsError(409, 'ConflictException'),
      etag('KV2'),
      etag('KV3'),
      kvsError(404, 'ResourceNotFoundException'),
      kvsError(400, 'ValidationException'),
      { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' },
    );
    const pauses: number[] = [];
    await writeWithEtag({ store: ports.store, pause: async (ms) => void pauses.push(ms) }, (ifMatch) =>
      ports.store.put('abc', 'withdrawn', ifMatch),
    );
    expect(requests.map((request) => [request.method, request.headers['if-match'] ?? null])).toEqual([
      ['GET', null],
      ['PUT', 'KV1'],
      ['GET', null],
      ['PUT', 'KV2'],
    ]);
    expect(pauses).toHaveLength(1);
    await expect(ports.store.delete('abc', 'KV3')).resolves.toBeUndefined();
    await expect(ports.store.delete('abc', 'KV3')).rejects.toBeInstanceOf(ValidationException);
    await expect(ports.store.etag()).rejects.toThrow('DescribeKeyValueStore answered no ETag');
  });

  it('invalidates the paths with the reference as caller reference, signed with SigV4 for us-east-1', async () => {
    const { requests, ports } = await overSdk({
      status: 201,
      headers: { 'content-type': 'text/xml' },
      body: '<Invalidation><Id>I1</Id><Status>InProgress</Status></Invalidation>',
    });
    await ports.invalidate(['/abc/*'], 'withdrawal-gate-e1-put');
    const [request] = requests;
    expect(request).toMatchObject({
      method: 'POST',
      hostname: 'cloudfront.amazonaws.com',
      path: '/2020-05-31/distribution/E2ABCDEF123456/invalidation',
    });
    expect(bodyText(request?.body)).toContain(
      '<Paths><Quantity>1</Quantity><Items><Path>/abc/*</Path></Items></Paths><CallerReference>withdrawal-gate-e1-put</CallerReference>',
    );
    expect(request?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/cloudfront\/aws4_request, /,
    );
  });
});
