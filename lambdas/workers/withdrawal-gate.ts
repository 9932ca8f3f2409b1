// workers -> the withdrawal gate of the hosted pages (deployed only): keeps the CloudFront KeyValueStore
// of withdrawn slugs, which the pages' viewer-request function reads (lib/hosted-pages.ts), in step with
// the marker blobs `published/{slug}/withdrawn` that frontend/pages/publication.ts writes and deletes,
// and invalidates the publication's cached files. EventBridge delivers S3's "Object Created" and
// "Object Deleted" events of marker keys; each says which marker changed, and the bucket says whether it
// is there now, so events delivered late or out of order still leave the store as the bucket is.
//
// No SDK client of the KeyValueStore or CloudFront is installed, so both are called over HTTPS with the
// signing below: the KeyValueStore API takes SigV4A only (ECDSA P-256, key derived from the secret
// key), CloudFront takes SigV4. Credentials are the function's, from its environment.
import { createECDH, createHash, createHmac, createPrivateKey, type KeyObject, sign } from 'node:crypto';
import { z } from 'zod';
import { isSlug, withdrawnKey } from '../../frontend/pages/publication';

/** The settings the gate reads besides `BLOB_BUCKET` (lib/hosted-pages.ts sets them). */
export const GATE_SETTINGS = {
  store: 'WITHDRAWN_SLUGS_STORE_ARN',
  distribution: 'PAGES_DISTRIBUTION_ID',
} as const;

/** S3's EventBridge events the gate is sent (lib/hosted-pages.ts filters on them). */
export const MARKER_EVENT_TYPES = ['Object Created', 'Object Deleted'] as const;

/** The slug whose withdrawal marker `key` is, or null for any other key. */
export const slugOfMarker = (key: string): string | null => {
  const slug = key.split('/')[1] ?? '';
  return isSlug(slug) && key === withdrawnKey(slug) ? slug : null;
};

/** The paths invalidated when a publication is withdrawn or comes back: all of its files. */
export const publicationPaths = (slug: string): string[] => [`/${slug}/*`];

// ---------------------------------------------------------------------------------------------------
// The gate, over its ports.

/** The store's version changed between reading its ETag and writing: read it again and retry. */
export class StaleEtagError extends Error {
  constructor(operation: string) {
    super(`the key value store changed during ${operation}`);
    this.name = 'StaleEtagError';
  }
}

/** The KeyValueStore API as the gate uses it: every write names the store version it expects. */
export interface KeyValueStoreClient {
  /** The store's current version (DescribeKeyValueStore's ETag). */
  etag(): Promise<string>;
  /** Throws StaleEtagError when `ifMatch` is no longer the store's version. */
  put(key: string, value: string, ifMatch: string): Promise<void>;
  /** As `put`; deleting a key that is not there succeeds. */
  delete(key: string, ifMatch: string): Promise<void>;
}

export interface GatePorts {
  /** The bucket the markers live in (events of any other bucket are refused). */
  readonly bucket: string;
  /** Whether the withdrawal marker of `slug` is in the bucket now. */
  markerPresent(slug: string): Promise<boolean>;
  readonly store: KeyValueStoreClient;
  /** Invalidates `paths` in the distribution; `reference` makes a repeated request a no-op. */
  invalidate(paths: string[], reference: string): Promise<void>;
  /** Waits before a retry (tests pass a no-op). */
  pause(milliseconds: number): Promise<void>;
}

/** Attempts of a conditional write before giving up (Lambda then retries the whole event). */
export const ETAG_ATTEMPTS = 5;

/**
 * Runs `write` with the store's current ETag, reading it again and retrying (after a short, growing,
 * jittered pause) while another writer changed the store in between.
 */
export const writeWithEtag = async (
  ports: Pick<GatePorts, 'store' | 'pause'>,
  write: (ifMatch: string) => Promise<void>,
  attempts = ETAG_ATTEMPTS,
): Promise<void> => {
  for (let attempt = 1; ; attempt++) {
    try {
      await write(await ports.store.etag());
      return;
    } catch (error) {
      if (!(error instanceof StaleEtagError) || attempt >= attempts) throw error;
      await ports.pause(50 * 2 ** attempt * (0.5 + Math.random()));
    }
  }
};

const MarkerEvent = z.object({
  id: z.string().min(1),
  source: z.literal('aws.s3'),
  'detail-type': z.enum(MARKER_EVENT_TYPES),
  detail: z.object({
    bucket: z.object({ name: z.string().min(1) }),
    object: z.object({ key: z.string().min(1) }),
  }),
});

export type GateOutcome = { slug: string; withdrawn: boolean } | { ignored: string };

/**
 * Handles one S3 event of a marker key: the slug goes into the store while its marker is present and
 * out of it when it is not, then the publication's files are invalidated. Repeating it is harmless.
 */
export const syncWithdrawal = async (event: unknown, ports: GatePorts): Promise<GateOutcome> => {
  const parsed = MarkerEvent.safeParse(event);
  if (!parsed.success) throw new Error(`not an S3 object event: ${z.prettifyError(parsed.error)}`);
  const { detail, id } = parsed.data;
  if (detail.bucket.name !== ports.bucket) throw new Error(`an event of bucket ${detail.bucket.name}`);
  const slug = slugOfMarker(detail.object.key);
  if (slug === null) return { ignored: 'not a withdrawal marker' };

  const withdrawn = await ports.markerPresent(slug);
  await writeWithEtag(ports, (ifMatch) =>
    withdrawn ? ports.store.put(slug, 'withdrawn', ifMatch) : ports.store.delete(slug, ifMatch),
  );
  // The event id names the invalidation: a retried event asks for the same one again.
  await ports.invalidate(publicationPaths(slug), `withdrawal-gate-${id}-${withdrawn ? 'put' : 'delete'}`);
  return { slug, withdrawn };
};

// ---------------------------------------------------------------------------------------------------
// Request signing: SigV4 (CloudFront) and SigV4A (the KeyValueStore API).

export interface AwsCredentials {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string | undefined;
}

export interface RequestToSign {
  readonly method: string;
  readonly url: URL;
  /** Headers to sign besides host, the date and the token (names in lower case). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export type SigningScope =
  | { readonly algorithm: 'AWS4-HMAC-SHA256'; readonly service: string; readonly region: string }
  | { readonly algorithm: 'AWS4-ECDSA-P256-SHA256'; readonly service: string; readonly regionSet: string };

const sha256Hex = (data: string): string => createHash('sha256').update(data, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer =>
  createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 percent-encoding, as AWS signing requires (`encodeURIComponent` leaves `!'()*`). */
export const uriEscape = (value: string): string =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** `YYYYMMDDTHHMMSSZ`. */
const amzDate = (now: Date): string =>
  now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

export interface PreparedRequest {
  /** Every header that is signed, by lower-case name (host included). */
  readonly headers: Record<string, string>;
  readonly canonicalRequest: string;
  readonly credentialScope: string;
  readonly signedHeaders: string;
  readonly stringToSign: string;
}

/**
 * The canonical request and string to sign. The path is escaped again as every service but S3 expects
 * (the request's own escapes, such as an ARN's `%3A`, become `%253A`); the path must be normalised.
 */
export const prepareRequest = (
  request: RequestToSign,
  credentials: AwsCredentials,
  scope: SigningScope,
  now: Date,
): PreparedRequest => {
  const longDate = amzDate(now);
  const headers: Record<string, string> = {
    ...Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]),
    ),
    host: request.url.host,
    'x-amz-date': longDate,
    ...(scope.algorithm === 'AWS4-ECDSA-P256-SHA256' && { 'x-amz-region-set': scope.regionSet }),
    ...(credentials.sessionToken && { 'x-amz-security-token': credentials.sessionToken }),
  };
  const names = Object.keys(headers).sort();
  const path = request.url.pathname;
  if (!path.startsWith('/') || /\/\/|\/\.\.?(\/|$)/.test(path))
    throw new Error(`not a normalised path: ${path}`);
  const query = [...request.url.searchParams]
    .map(([name, value]) => [uriEscape(name), uriEscape(value)] as const)
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const signedHeaders = names.join(';');
  const canonicalRequest = [
    request.method,
    path.split('/').map(uriEscape).join('/'),
    query,
    ...names.map((name) => `${name}:${(headers[name] ?? '').trim().replace(/\s+/g, ' ')}`),
    '',
    signedHeaders,
    sha256Hex(request.body),
  ].join('\n');
  const shortDate = longDate.slice(0, 8);
  const credentialScope =
    scope.algorithm === 'AWS4-HMAC-SHA256'
      ? `${shortDate}/${scope.region}/${scope.service}/aws4_request`
      : `${shortDate}/${scope.service}/aws4_request`;
  const stringToSign = [scope.algorithm, longDate, credentialScope, sha256Hex(canonicalRequest)].join('\n');
  return { headers, canonicalRequest, credentialScope, signedHeaders, stringToSign };
};

/** P-256's group order; SigV4A's private key is below it. */
const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

/**
 * The SigV4A private key of a pair of credentials (AWS's key derivation: HMAC-SHA256 of a fixed input
 * keyed by `AWS4A` + secret, counter-mode until the candidate is below the order minus one, plus one).
 */
export const sigV4aPrivateKey = (credentials: AwsCredentials): Buffer => {
  for (let counter = 1; counter <= 254; counter++) {
    const fixedInput = Buffer.concat([
      Buffer.from([0, 0, 0, 1]),
      Buffer.from('AWS4-ECDSA-P256-SHA256\0', 'latin1'),
      Buffer.from(credentials.accessKeyId, 'utf8'),
      Buffer.from([counter, 0, 0, 1, 0]),
    ]);
    const candidate = BigInt(
      `0x${createHmac('sha256', `AWS4A${credentials.secretAccessKey}`).update(fixedInput).digest('hex')}`,
    );
    if (candidate <= P256_ORDER - 2n)
      return Buffer.from((candidate + 1n).toString(16).padStart(64, '0'), 'hex');
  }
  throw new Error('no SigV4A key could be derived from these credentials');
};

/** An EC private key object from a raw P-256 scalar. */
export const p256Key = (scalar: Buffer): KeyObject => {
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(scalar);
  const point = ecdh.getPublicKey();
  return createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: scalar.toString('base64url'),
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
};

const sigV4aKeys = new Map<string, KeyObject>();

/** The derived key, once per access key (deriving it is a few HMACs and a point multiplication). */
const sigV4aKeyOf = (credentials: AwsCredentials): KeyObject => {
  const id = `${credentials.accessKeyId}:${sha256Hex(credentials.secretAccessKey)}`;
  let key = sigV4aKeys.get(id);
  if (!key) {
    key = p256Key(sigV4aPrivateKey(credentials));
    sigV4aKeys.clear();
    sigV4aKeys.set(id, key);
  }
  return key;
};

/** The headers to send: the signed ones (without host, which fetch sets from the URL) and Authorization. */
export const signRequest = (
  request: RequestToSign,
  credentials: AwsCredentials,
  scope: SigningScope,
  now = new Date(),
): Record<string, string> => {
  const prepared = prepareRequest(request, credentials, scope, now);
  let signature: string;
  if (scope.algorithm === 'AWS4-HMAC-SHA256') {
    const [date] = prepared.credentialScope.split('/');
    const key = [date ?? '', scope.region, scope.service, 'aws4_request'].reduce<string | Buffer>(
      (previous, part) => hmac(previous, part),
      `AWS4${credentials.secretAccessKey}`,
    );
    signature = hmac(key, prepared.stringToSign).toString('hex');
  } else {
    signature = sign('sha256', Buffer.from(prepared.stringToSign, 'utf8'), {
      key: sigV4aKeyOf(credentials),
      dsaEncoding: 'der',
    }).toString('hex');
  }
  const { host: _host, ...headers } = prepared.headers;
  return {
    ...headers,
    authorization: `${scope.algorithm} Credential=${credentials.accessKeyId}/${prepared.credentialScope}, SignedHeaders=${prepared.signedHeaders}, Signature=${signature}`,
  };
};

// ---------------------------------------------------------------------------------------------------
// Adapters: the KeyValueStore and CloudFront over HTTPS.

export type Fetch = (
  url: URL,
  init: { method: string; headers: Record<string, string>; body?: string },
) => Promise<Response>;

export interface HttpClientOptions {
  readonly credentials: () => AwsCredentials;
  readonly fetch?: Fetch;
  readonly now?: () => Date;
}

const KVS_ARN = /^arn:aws:cloudfront::(\d{12}):key-value-store\/[A-Za-z0-9-]+$/;

const errorOf = async (operation: string, response: Response): Promise<Error> => {
  const type = response.headers.get('x-amzn-errortype')?.split(':')[0];
  const body = (await response.text().catch(() => '')).slice(0, 300);
  return new Error(`${operation} answered ${response.status}${type ? ` ${type}` : ''}: ${body}`);
};

/**
 * The KeyValueStore API (https://{account}.cloudfront-kvs.global.api.aws, REST JSON, SigV4A over every
 * region): DescribeKeyValueStore, PutKey and DeleteKey. A 409 or 412 is a stale ETag.
 */
export const keyValueStoreClient = (arn: string, options: HttpClientOptions): KeyValueStoreClient => {
  const account = KVS_ARN.exec(arn)?.[1];
  if (!account) throw new Error(`not a key value store ARN: ${arn}`);
  const { credentials, fetch: send = fetch, now = () => new Date() } = options;
  const scope: SigningScope = {
    algorithm: 'AWS4-ECDSA-P256-SHA256',
    service: 'cloudfront-keyvaluestore',
    regionSet: '*',
  };
  const call = (method: string, key: string | null, headers: Record<string, string>, body = '') => {
    const url = new URL(
      `https://${account}.cloudfront-kvs.global.api.aws/key-value-stores/${uriEscape(arn)}${key === null ? '' : `/keys/${uriEscape(key)}`}`,
    );
    return send(url, {
      method,
      headers: signRequest({ method, url, headers, body }, credentials(), scope, now()),
      ...(body && { body }),
    });
  };
  const write = async (operation: string, response: Response, absentIsDone: boolean): Promise<void> => {
    if (response.ok || (absentIsDone && response.status === 404)) {
      await response.body?.cancel();
      return;
    }
    if (response.status === 409 || response.status === 412) {
      await response.body?.cancel();
      throw new StaleEtagError(operation);
    }
    throw await errorOf(operation, response);
  };
  return {
    async etag() {
      const response = await call('GET', null, {});
      if (!response.ok) throw await errorOf('DescribeKeyValueStore', response);
      await response.body?.cancel();
      const etag = response.headers.get('etag');
      if (!etag) throw new Error('DescribeKeyValueStore answered no ETag');
      return etag;
    },
    async put(key, value, ifMatch) {
      const body = JSON.stringify({ Value: value });
      const headers = { 'content-type': 'application/json', 'if-match': ifMatch };
      await write('PutKey', await call('PUT', key, headers, body), false);
    },
    async delete(key, ifMatch) {
      await write('DeleteKey', await call('DELETE', key, { 'if-match': ifMatch }), true);
    },
  };
};

const xmlEscape = (value: string): string => value.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** CloudFront's CreateInvalidation (https://cloudfront.amazonaws.com, REST XML, SigV4 in us-east-1). */
export const cloudFrontInvalidator =
  (distributionId: string, options: HttpClientOptions) =>
  async (paths: string[], reference: string): Promise<void> => {
    const { credentials, fetch: send = fetch, now = () => new Date() } = options;
    const url = new URL(
      `https://cloudfront.amazonaws.com/2020-05-31/distribution/${uriEscape(distributionId)}/invalidation`,
    );
    const body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<InvalidationBatch xmlns="http://cloudfront.amazonaws.com/doc/2020-05-31/">',
      `<Paths><Quantity>${paths.length}</Quantity><Items>${paths.map((path) => `<Path>${xmlEscape(path)}</Path>`).join('')}</Items></Paths>`,
      `<CallerReference>${xmlEscape(reference)}</CallerReference>`,
      '</InvalidationBatch>',
    ].join('');
    const headers = { 'content-type': 'application/xml' };
    const scope: SigningScope = { algorithm: 'AWS4-HMAC-SHA256', service: 'cloudfront', region: 'us-east-1' };
    const response = await send(url, {
      method: 'POST',
      headers: signRequest({ method: 'POST', url, headers, body }, credentials(), scope, now()),
      body,
    });
    if (!response.ok) throw await errorOf('CreateInvalidation', response);
    await response.body?.cancel();
  };

// ---------------------------------------------------------------------------------------------------
// The Lambda handler.

const GateConfig = z.object({
  [GATE_SETTINGS.store]: z.string().regex(KVS_ARN),
  [GATE_SETTINGS.distribution]: z.string().regex(/^[A-Z0-9]+$/),
  BLOB_BUCKET: z.string().min(1),
  AWS_REGION: z.string().min(1),
  AWS_ACCESS_KEY_ID: z.string().min(1),
  AWS_SECRET_ACCESS_KEY: z.string().min(1),
  AWS_SESSION_TOKEN: z.string().min(1).optional(),
});

let ports: Promise<GatePorts> | undefined;

const build = async (): Promise<GatePorts> => {
  const config = GateConfig.parse(process.env);
  // The function role's credentials, which Lambda puts in the environment for the instance's lifetime
  // (the SDK's first provider reads them there too).
  const credentials = (): AwsCredentials => ({
    accessKeyId: config.AWS_ACCESS_KEY_ID,
    secretAccessKey: config.AWS_SECRET_ACCESS_KEY,
    sessionToken: config.AWS_SESSION_TOKEN,
  });
  const { ListObjectsV2Command } = await import('@aws-sdk/client-s3');
  const { createS3Client } = await import('../adapters/blobs/s3-client');
  const s3 = createS3Client({ region: config.AWS_REGION });
  return {
    bucket: config.BLOB_BUCKET,
    // A listing of the marker's own key (the role may list nothing else): the current version only,
    // so a deleted marker (a delete marker in the versioned bucket) is absent.
    markerPresent: async (slug) => {
      const key = withdrawnKey(slug);
      const listed = await s3.send(
        new ListObjectsV2Command({ Bucket: config.BLOB_BUCKET, Prefix: key, MaxKeys: 1 }),
      );
      return (listed.Contents ?? []).some((object) => object.Key === key);
    },
    store: keyValueStoreClient(config[GATE_SETTINGS.store], { credentials }),
    invalidate: cloudFrontInvalidator(config[GATE_SETTINGS.distribution], { credentials }),
    pause: (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds)),
  };
};

/** The ports of this instance, built on first use; a failed build is retried on the next event. */
const gatePorts = (): Promise<GatePorts> => {
  ports ??= build().catch((error) => {
    ports = undefined;
    throw error;
  });
  return ports;
};

export const handler = async (event: unknown): Promise<GateOutcome> =>
  syncWithdrawal(event, await gatePorts());
