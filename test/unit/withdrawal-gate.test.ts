// unit -> the withdrawal gate (lambdas/workers/withdrawal-gate.ts): which slug a marker key is, put or
// delete as the bucket has the marker, the conditional (ETag) retry, and the HTTP adapters of the
// KeyValueStore and CloudFront with a fake fetch, their signing checked against AWS's test vectors.
import { createPrivateKey, createPublicKey, verify } from 'node:crypto';
import { withdrawnKey } from '../../frontend/pages/publication';
import {
  type AwsCredentials,
  cloudFrontInvalidator,
  type Fetch,
  type GatePorts,
  type KeyValueStoreClient,
  keyValueStoreClient,
  p256Key,
  prepareRequest,
  StaleEtagError,
  signRequest,
  sigV4aPrivateKey,
  slugOfMarker,
  syncWithdrawal,
  writeWithEtag,
} from '../../lambdas/workers/withdrawal-gate';

const BUCKET = 'contract-service-blobs';

/** A key value store in memory whose version moves on each write, and on `interfere` reads. */
class MemoryStore implements KeyValueStoreClient {
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
  private check(operation: string, ifMatch: string): void {
    this.writes++;
    if (ifMatch !== `KV${this.version}`) throw new StaleEtagError(operation);
    this.version++;
  }
  async put(key: string, value: string, ifMatch: string): Promise<void> {
    this.check('PutKey', ifMatch);
    this.keys.set(key, value);
  }
  async delete(key: string, ifMatch: string): Promise<void> {
    this.check('DeleteKey', ifMatch);
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
    markerPresent: async (slug) => present.has(slug),
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
    ).rejects.toBeInstanceOf(StaleEtagError);
    expect(invalidations).toEqual([]);
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

  it('gives up after its attempts, with the stale ETag error', async () => {
    const { store, pauses, ports } = setup();
    store.interfere = 100;
    await expect(writeWithEtag(ports, (ifMatch) => store.put('abc', 'x', ifMatch), 5)).rejects.toBeInstanceOf(
      StaleEtagError,
    );
    expect(store.writes).toBe(5);
    expect(pauses).toHaveLength(4);
  });

  it('does not retry any other error', async () => {
    const { pauses, ports } = setup();
    let calls = 0;
    await expect(
      writeWithEtag(ports, async () => {
        calls++;
        throw new Error('AccessDenied');
      }),
    ).rejects.toThrow('AccessDenied');
    expect(calls).toBe(1);
    expect(pauses).toEqual([]);
  });
});

// AWS's signing test suite credentials and time (aws-sig-v4-test-suite, aws-c-auth v4a).
const EXAMPLE: AwsCredentials = {
  accessKeyId: 'AKIDEXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
};
const EXAMPLE_TIME = new Date('2015-08-30T12:36:00Z');
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe('signing', () => {
  it('signs SigV4 as AWS’s get-vanilla example', () => {
    const headers = signRequest(
      { method: 'GET', url: new URL('https://example.amazonaws.com/'), headers: {}, body: '' },
      EXAMPLE,
      { algorithm: 'AWS4-HMAC-SHA256', service: 'service', region: 'us-east-1' },
      EXAMPLE_TIME,
    );
    expect(headers).toEqual({
      'x-amz-date': '20150830T123600Z',
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    });
  });

  it('derives the SigV4A key of a pair of credentials as AWS does', () => {
    // aws-c-auth's key derivation test ("derived in synchronicity with Golang and IAM implementations").
    const key = p256Key(
      sigV4aPrivateKey({
        accessKeyId: 'AKISORANDOMAASORANDOM',
        secretAccessKey: 'q+jcrXGc+0zWN6uzclKVhvMmUsIfRPa4rlRandom',
      }),
    );
    const jwk = createPublicKey(key).export({ format: 'jwk' });
    expect(Buffer.from(jwk.x ?? '', 'base64url').toString('hex')).toBe(
      '15d242ceebf8d8169fd6a8b5a746c41140414c3b07579038da06af89190fffcb',
    );
    expect(Buffer.from(jwk.y ?? '', 'base64url').toString('hex')).toBe(
      '0515242cedd82e94799482e4c0514b505afccf2c0c98d6a553bf539f424c5ec0',
    );
  });

  it('builds the SigV4A string to sign of aws-c-auth’s examples (their signatures verify over it)', () => {
    // The suite's examples are signed with this key (tests/aws-signing-test-suite/v4a/*/key.pem).
    const suiteKey = createPublicKey(
      createPrivateKey(
        [
          '-----BEGIN EC PRIVATE KEY-----',
          'MHcCAQEEIIm7LQIWSBKju98BVYGTLtEC419gHG4EB0Dqqxa1JuHSoAoGCCqGSM49AwEHoUQDQgAEFGiW',
          'O1MjQ5w61e9aQGW1bCT1zpTdgQxUuVW+vbmJ6NIvclSY4rkJDmUwyNNdKgrkC3Lq4eRydZRgbu1yCKcA',
          'lQ==',
          '-----END EC PRIVATE KEY-----',
          '',
        ].join('\n'),
      ),
    );
    const examples = [
      {
        credentials: EXAMPLE,
        signedHeaders: 'host;x-amz-date;x-amz-region-set',
        signature:
          '3045022100f4c37457a8978d07fa07044d5724237f8c30f8529c4c4cd1f30a4c0e6486303f02207968f80296f1ac3808e3cb45ae1f31c479d071dcad4f0621084cd6d1b6a912bd',
      },
      {
        credentials: {
          ...EXAMPLE,
          sessionToken: '6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267',
        },
        signedHeaders: 'host;x-amz-date;x-amz-region-set;x-amz-security-token',
        signature:
          '3046022100c73cca08380c72b8adb0ead5f9b51ad34ef1518bce21d7a7b43cd1a5c8cd38bc022100b9891d3e8828d1aafd32b946a42a235a6c7a6d762791595d1fb4513a50377257',
      },
    ];
    for (const example of examples) {
      const prepared = prepareRequest(
        { method: 'GET', url: new URL('https://example.amazonaws.com/'), headers: {}, body: '' },
        example.credentials,
        { algorithm: 'AWS4-ECDSA-P256-SHA256', service: 'service', regionSet: 'us-east-1' },
        EXAMPLE_TIME,
      );
      expect(prepared.signedHeaders).toBe(example.signedHeaders);
      expect(prepared.credentialScope).toBe('20150830/service/aws4_request');
      expect(prepared.canonicalRequest.split('\n').at(-1)).toBe(EMPTY_SHA256);
      expect(
        verify('sha256', Buffer.from(prepared.stringToSign), suiteKey, Buffer.from(example.signature, 'hex')),
      ).toBe(true);
    }
  });

  it('escapes the path again, as every service but S3 expects', () => {
    const prepared = prepareRequest(
      {
        method: 'GET',
        url: new URL(
          'https://123456789012.cloudfront-kvs.global.api.aws/key-value-stores/arn%3Aaws%3Acloudfront%3A%3A1%3Akey-value-store%2Fk',
        ),
        headers: {},
        body: '',
      },
      EXAMPLE,
      { algorithm: 'AWS4-ECDSA-P256-SHA256', service: 'cloudfront-keyvaluestore', regionSet: '*' },
      EXAMPLE_TIME,
    );
    expect(prepared.canonicalRequest.split('\n')[1]).toBe(
      '/key-value-stores/arn%253Aaws%253Acloudfront%253A%253A1%253Akey-value-store%252Fk',
    );
    expect(() =>
      prepareRequest(
        { method: 'GET', url: new URL('https://x.example/a//b'), headers: {}, body: '' },
        EXAMPLE,
        {
          algorithm: 'AWS4-HMAC-SHA256',
          service: 's',
          region: 'r',
        },
        EXAMPLE_TIME,
      ),
    ).toThrow('not a normalised path');
  });
});

const ARN = 'arn:aws:cloudfront::123456789012:key-value-store/0f1e2d3c-aaaa-bbbb-cccc-0123456789ab';
const ESCAPED_ARN =
  'arn%3Aaws%3Acloudfront%3A%3A123456789012%3Akey-value-store%2F0f1e2d3c-aaaa-bbbb-cccc-0123456789ab';
const CREDENTIALS: AwsCredentials = { ...EXAMPLE, sessionToken: 'session-token' };

type Call = { url: URL; method: string; headers: Record<string, string>; body?: string };

/** A fetch answering each call with the next of `answers`, recording the calls. */
const fakeFetch = (...answers: (() => Response)[]) => {
  const calls: Call[] = [];
  const fetch: Fetch = async (url, init) => {
    calls.push({ url, ...init });
    const answer = answers.shift();
    if (!answer) throw new Error('no answer left');
    return answer();
  };
  return { calls, fetch };
};

/** Whether `call` carries a valid SigV4A signature of CREDENTIALS (verified with the derived public key). */
const signedWithSigV4a = (call: Call): boolean => {
  const { authorization, ...headers } = call.headers;
  const prepared = prepareRequest(
    {
      method: call.method,
      url: call.url,
      headers: Object.fromEntries(
        Object.entries(headers).filter(
          ([name]) => !['x-amz-date', 'x-amz-region-set', 'x-amz-security-token'].includes(name),
        ),
      ),
      body: call.body ?? '',
    },
    CREDENTIALS,
    { algorithm: 'AWS4-ECDSA-P256-SHA256', service: 'cloudfront-keyvaluestore', regionSet: '*' },
    EXAMPLE_TIME,
  );
  const signature = /Signature=([0-9a-f]+)$/.exec(authorization ?? '')?.[1] ?? '';
  return (
    (authorization ?? '').startsWith(
      `AWS4-ECDSA-P256-SHA256 Credential=AKIDEXAMPLE/20150830/cloudfront-keyvaluestore/aws4_request, SignedHeaders=${prepared.signedHeaders}, `,
    ) &&
    verify(
      'sha256',
      Buffer.from(prepared.stringToSign),
      createPublicKey(p256Key(sigV4aPrivateKey(CREDENTIALS))),
      Buffer.from(signature, 'hex'),
    )
  );
};

describe('keyValueStoreClient', () => {
  const client = (fetch: Fetch) =>
    keyValueStoreClient(ARN, { credentials: () => CREDENTIALS, fetch, now: () => EXAMPLE_TIME });

  it('reads the store’s ETag with DescribeKeyValueStore, at the account’s endpoint, signed with SigV4A for every region', async () => {
    const { calls, fetch } = fakeFetch(() => new Response('{}', { status: 200, headers: { ETag: 'KV123' } }));
    await expect(client(fetch).etag()).resolves.toBe('KV123');
    expect(calls).toHaveLength(1);
    const [call] = calls as [Call];
    expect(call.method).toBe('GET');
    expect(call.url.href).toBe(
      `https://123456789012.cloudfront-kvs.global.api.aws/key-value-stores/${ESCAPED_ARN}`,
    );
    expect(call.headers).toMatchObject({
      'x-amz-date': '20150830T123600Z',
      'x-amz-region-set': '*',
      'x-amz-security-token': 'session-token',
    });
    expect(call.headers.host).toBeUndefined();
    expect(signedWithSigV4a(call)).toBe(true);
  });

  it('puts a key with PutKey, naming the ETag it read', async () => {
    const { calls, fetch } = fakeFetch(
      () => new Response('{"ItemCount":1}', { status: 200, headers: { ETag: 'KV2' } }),
    );
    await client(fetch).put('abc', 'withdrawn', 'KV1');
    const [call] = calls as [Call];
    expect(call.method).toBe('PUT');
    expect(call.url.pathname).toBe(`/key-value-stores/${ESCAPED_ARN}/keys/abc`);
    expect(JSON.parse(call.body ?? '')).toEqual({ Value: 'withdrawn' });
    expect(call.headers).toMatchObject({ 'if-match': 'KV1', 'content-type': 'application/json' });
    expect(call.headers.authorization).toContain(
      'SignedHeaders=content-type;host;if-match;x-amz-date;x-amz-region-set;x-amz-security-token,',
    );
    expect(signedWithSigV4a(call)).toBe(true);
  });

  it('deletes a key with DeleteKey, a key already gone counting as deleted', async () => {
    const { calls, fetch } = fakeFetch(
      () => new Response('{}', { status: 200, headers: { ETag: 'KV3' } }),
      () =>
        new Response('{"Message":"Key not found"}', {
          status: 404,
          headers: { 'x-amzn-ErrorType': 'ResourceNotFoundException' },
        }),
    );
    await client(fetch).delete('abc', 'KV2');
    await client(fetch).delete('abc', 'KV3');
    expect(
      calls.map((call) => [call.method, call.url.pathname, call.headers['if-match'], call.body]),
    ).toEqual([
      ['DELETE', `/key-value-stores/${ESCAPED_ARN}/keys/abc`, 'KV2', undefined],
      ['DELETE', `/key-value-stores/${ESCAPED_ARN}/keys/abc`, 'KV3', undefined],
    ]);
    expect(signedWithSigV4a(calls[0] as Call)).toBe(true);
  });

  it('reports a stale ETag (409 or 412) as StaleEtagError, and any other failure as an error', async () => {
    const { fetch } = fakeFetch(
      () => new Response('{}', { status: 409, headers: { 'x-amzn-ErrorType': 'ConflictException' } }),
      () => new Response('{}', { status: 412 }),
      () =>
        new Response('{"Message":"denied"}', {
          status: 403,
          headers: { 'x-amzn-ErrorType': 'AccessDeniedException' },
        }),
      () =>
        new Response('{"Message":"no store"}', {
          status: 404,
          headers: { 'x-amzn-ErrorType': 'ResourceNotFoundException' },
        }),
      () => new Response('{}', { status: 200 }),
    );
    const kvs = client(fetch);
    await expect(kvs.put('abc', 'withdrawn', 'KV1')).rejects.toBeInstanceOf(StaleEtagError);
    await expect(kvs.delete('abc', 'KV1')).rejects.toBeInstanceOf(StaleEtagError);
    await expect(kvs.put('abc', 'withdrawn', 'KV1')).rejects.toThrow(
      'PutKey answered 403 AccessDeniedException',
    );
    await expect(kvs.etag()).rejects.toThrow('DescribeKeyValueStore answered 404 ResourceNotFoundException');
    await expect(kvs.etag()).rejects.toThrow('answered no ETag');
  });

  it('refuses an ARN that is no key value store', () => {
    expect(() => keyValueStoreClient('arn:aws:s3:::bucket', { credentials: () => CREDENTIALS })).toThrow(
      'not a key value store ARN',
    );
  });
});

describe('cloudFrontInvalidator', () => {
  it('creates an invalidation of the paths with CreateInvalidation, signed with SigV4 for us-east-1', async () => {
    const { calls, fetch } = fakeFetch(() => new Response('<Invalidation/>', { status: 201 }));
    await cloudFrontInvalidator('E2ABCDEF123456', {
      credentials: () => CREDENTIALS,
      fetch,
      now: () => EXAMPLE_TIME,
    })(['/abc/*'], 'withdrawal-gate-e1-put');
    const [call] = calls as [Call];
    expect(call.method).toBe('POST');
    expect(call.url.href).toBe(
      'https://cloudfront.amazonaws.com/2020-05-31/distribution/E2ABCDEF123456/invalidation',
    );
    expect(call.body).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><InvalidationBatch xmlns="http://cloudfront.amazonaws.com/doc/2020-05-31/"><Paths><Quantity>1</Quantity><Items><Path>/abc/*</Path></Items></Paths><CallerReference>withdrawal-gate-e1-put</CallerReference></InvalidationBatch>',
    );
    const { authorization, ...headers } = call.headers;
    const expected = signRequest(
      {
        method: 'POST',
        url: call.url,
        headers: { 'content-type': 'application/xml' },
        body: call.body ?? '',
      },
      CREDENTIALS,
      { algorithm: 'AWS4-HMAC-SHA256', service: 'cloudfront', region: 'us-east-1' },
      EXAMPLE_TIME,
    );
    expect(authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20150830\/us-east-1\/cloudfront\/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/,
    );
    expect({ ...headers, authorization }).toEqual(expected);
  });

  it('fails when CloudFront refuses', async () => {
    const { fetch } = fakeFetch(
      () => new Response('<Error><Code>TooManyInvalidationsInProgress</Code></Error>', { status: 400 }),
    );
    await expect(
      cloudFrontInvalidator('E2ABCDEF123456', { credentials: () => CREDENTIALS, fetch })(['/abc/*'], 'r'),
    ).rejects.toThrow('CreateInvalidation answered 400: <Error><Code>TooManyInvalidationsInProgress');
  });
});
