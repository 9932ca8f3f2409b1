// test support -> a property-based fuzzer of the running local stack (fast-check): malformed requests of
// every kind to every endpoint of both API addresses, the frame API and the hosted pages. Each answer
// must be the service's own: never a 5xx, and on the API and frame addresses a `Service-Request-Id` and,
// on an error, the JSON error body. The frame API's credentials are fuzzed too (session tokens, binding
// cookies, Origin, Sec-Fetch-Site): a person's draft and submission are stored first through the frame,
// and no answer may ever contain them, since no request holds that person's browser binding. Used by test/api/fuzz.test.ts (a fixed seed, a few hundred cases) and
// `npm run fuzz` (test/support/fuzz-cli.ts: 10,000 cases by default, figures printed).
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { FRAME_ROUTES } from '../../lambdas/api/frame-routes';
import { ROUTES } from '../../lambdas/api/routes';
import { bearer, call, contentDigest, exchange, multipart, type Part } from './api-client';
import { frameRequest, newBrowser } from './frame-client';
import type { RunningStack } from './local-stack';
import { contractPdf } from './pdfs';
import { createTenant } from './tenants';

type Host = 'api' | 'frame' | 'pages';

/** What the fuzzer needs of a running stack: its addresses and a credential of each kind. */
export interface FuzzTarget {
  bases: Record<Host, string[]>;
  /** The credential each address accepts (an access token, a session token), so most requests get in. */
  accepted: Record<string, string>;
  /** Credentials a request may carry instead (of the other environment, of another kind, malformed). */
  credentials: string[];
  pdf: Uint8Array;
  /** Text of the answers a person stored through each frame (a draft and a submission): never to be seen. */
  storedAnswers: string[];
  /** Binding cookies a request may carry: another browser's real one, made up, malformed. */
  cookies: string[];
}

/** Answers the frame API takes, with `marker` in what only the person's browser may read back. */
const personsAnswers = (marker: string) => ({
  buyers: [
    {
      first_name: 'Maria',
      last_name: 'Rossi',
      email: 'maria@example.com',
      mobile: '0400 000 001',
      date_of_birth: '1988-07-31',
      address: {
        line1: `1 ${marker} Lane`,
        suburb: 'Carlton',
        state: 'VIC',
        postcode: '3053',
        country: 'Australia',
      },
    },
  ],
  property: { address: { line1: '3 High Street', suburb: 'Kew', state: 'VIC', postcode: '3101' } },
  payment: { method: 'loan', lender: `${marker} Bank` },
  consents: { privacy: true, terms: true },
});

/**
 * A person's submission and then draft through the frame at `frame` with `token`, each holding a marker
 * of its own; answers the markers, and another browser's binding cookie (which holds a draft of its own).
 */
const storeAnswers = async (frame: string, token: string): Promise<{ markers: string[]; other: string }> => {
  const person = newBrowser();
  const [sent, drafted] = [
    `Wombat${randomUUID().replaceAll('-', '')}`,
    `Numbat${randomUUID().replaceAll('-', '')}`,
  ];
  await frameRequest(`${frame}/api/form`, 'GET', { token, browser: person });
  const submitted = await frameRequest(`${frame}/api/submit`, 'POST', {
    token,
    browser: person,
    body: { answers: personsAnswers(sent) },
  });
  const draft = await frameRequest(`${frame}/api/draft`, 'PUT', {
    token,
    browser: person,
    body: { answers: { note: drafted } },
  });
  const other = newBrowser();
  await frameRequest(`${frame}/api/form`, 'GET', { token, browser: other });
  await frameRequest(`${frame}/api/draft`, 'PUT', { token, browser: other, body: { answers: { step: 1 } } });
  if (submitted.status !== 200 || draft.status !== 204 || other.cookie === undefined)
    throw new Error(`storing a person's answers: ${submitted.status} ${draft.status}`);
  return { markers: [sent, drafted], other: other.cookie };
};

/**
 * Opens what the fuzzer's requests use: keys, tokens, a session token, a small PDF; all of a tenant of its
 * own, so that what the fuzzer's accepted requests make is no other test's (the stack may be shared).
 */
export const fuzzTarget = async (stack: RunningStack): Promise<FuzzTarget> => {
  const { keys } = await createTenant(stack, 'fuzz');
  const production = await exchange(stack.production, keys.production);
  const sandbox = await exchange(stack.sandbox, keys.sandbox);
  const session = async (base: string, token: string): Promise<string> => {
    const answer = await call(`${base}/v1/clients/onboardings/sessions`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify({ reference: `fuzz-${randomUUID()}` }),
    });
    return answer.body.session_token as string;
  };
  const productionSession = await session(stack.production, production);
  const sandboxSession = await session(stack.sandbox, sandbox);
  const stored = [
    await storeAnswers(stack.frame.production, productionSession),
    await storeAnswers(stack.frame.sandbox, sandboxSession),
  ];
  return {
    bases: {
      api: [stack.production, stack.sandbox],
      frame: [stack.frame.production, stack.frame.sandbox],
      pages: [stack.pages.production, stack.pages.sandbox],
    },
    accepted: {
      [stack.production]: production,
      [stack.sandbox]: sandbox,
      [stack.frame.production]: productionSession,
      [stack.frame.sandbox]: sandboxSession,
    },
    credentials: [
      production,
      sandbox,
      keys.production,
      keys.sandbox,
      productionSession,
      `${production.slice(0, -4)}AAAA`,
      'svc_live_short',
      'onbs_AAAAAAAAAAAAAAAAAAAAAA',
    ],
    pdf: await contractPdf(1),
    storedAnswers: stored.flatMap((each) => each.markers),
    cookies: [
      ...stored.map((each) => each.other),
      `onboarding_browser=onbb_${'A'.repeat(32)}`,
      'onboarding_browser=onbb_short',
      'onboarding_browser=',
      `onboarding_browser=${stored[0]?.other.split('=')[1]}; onboarding_browser=onbb_${'B'.repeat(32)}`,
      'other=1',
    ],
  };
};

/** Text of every sort a person or an attacker types: ids, escapes, controls, very long runs. */
const nasty = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string(),
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.constantFrom('%', '%zz', '%c0%af', '%ff', '%00', '..', '%2e%2e', '/', '\\', "'", '"', '<script>'),
    fc
      .constantFrom('crv_', 'onb_', 'cli_', 'whe_', 'msg_')
      .chain((prefix) => fc.string({ minLength: 1, maxLength: 80 }).map((rest) => `${prefix}${rest}`)),
    fc
      .tuple(fc.constantFrom('crv_', 'onb_', 'cli_', 'A', '%41'), fc.integer({ min: 100, max: 6_000 }))
      .map(([prefix, length]) => `${prefix}${'A'.repeat(length)}`),
  );

/** A path segment: encoded as a client would, or raw (malformed percent-encoding included). */
const segment = (): fc.Arbitrary<string> =>
  fc.oneof(
    nasty().map((text) => encodeURIComponent(text)),
    nasty().map((text) => text.replace(/[/?#\s]/g, '')),
  );

const ANY_METHOD = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS');

/** The routes of `host`, as method and path (`{id}` for a parameter). */
const routesOf = (host: Host): Array<{ method: string; path: string }> =>
  host === 'api'
    ? [...ROUTES, { method: 'GET', path: '/onboarding.js' }]
    : host === 'frame'
      ? [...FRAME_ROUTES, { method: 'GET', path: '/' }, { method: 'GET', path: '/index.html' }]
      : [
          { method: 'GET', path: '/{id}/' },
          { method: 'GET', path: '/{id}/v1/page-1.webp' },
        ];

/**
 * A method and path of `host`: mostly a route with its own method and its `{id}` filled in anyhow, else
 * another method, or somewhere else entirely.
 */
const targetOf = (host: Host): fc.Arbitrary<{ method: string; path: string }> =>
  fc.oneof(
    {
      arbitrary: fc
        .tuple(fc.constantFrom(...routesOf(host)), segment())
        .map(([route, id]) => ({ method: route.method, path: route.path.replace('{id}', id) })),
      weight: 6,
    },
    {
      arbitrary: fc
        .tuple(fc.constantFrom(...routesOf(host)), segment(), ANY_METHOD)
        .map(([route, id, method]) => ({ method, path: route.path.replace('{id}', id) })),
      weight: 2,
    },
    {
      arbitrary: fc
        .tuple(fc.array(segment(), { minLength: 1, maxLength: 4 }), ANY_METHOD)
        .map(([parts, method]) => ({ method, path: `/${parts.join('/')}` })),
      weight: 1,
    },
  );

const QUERY_NAMES = ['limit', 'starting_after', 'external_reference', 'onboarding_id', 'reference', 'x'];

const queryOf = (): fc.Arbitrary<string> =>
  fc
    .array(
      fc.tuple(
        fc.oneof(fc.constantFrom(...QUERY_NAMES), nasty()),
        fc.oneof(nasty(), fc.integer().map(String)),
      ),
      {
        maxLength: 4,
      },
    )
    .map((pairs) => (pairs.length === 0 ? '' : `?${new URLSearchParams(pairs).toString()}`));

/** JSON nested `depth` deep. */
const nestedJson = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

type Body = { bytes: Uint8Array; contentType?: string; multipart?: true };

/** A `request` part close to one the interface takes: each field right, wrong or missing. */
const contractRequest = (): fc.Arbitrary<string> =>
  fc.oneof(
    // Requests that are right, so that some uploads get past validation to the file and the records.
    fc
      .uuid()
      .map((reference) => JSON.stringify({ external_reference: reference, product: 'contract_viewer' })),
    fc.integer({ min: 0, max: 3 }).map((version) => JSON.stringify({ based_on_version: version })),
    fuzzedContractRequest(),
  );

const fuzzedContractRequest = (): fc.Arbitrary<string> =>
  fc
    .record(
      {
        external_reference: fc.oneof(fc.uuid(), nasty()),
        product: fc.oneof(fc.constantFrom('contract_viewer', 'legal_information', 'legal_advice'), nasty()),
        review: fc.oneof(fc.constantFrom('lawyer', 'ai', 'on_request', null), nasty()),
        clients: fc.oneof(
          fc.constant(null),
          fc.array(fc.oneof(nasty(), fc.constant('cli_AAAA')), { maxLength: 12 }),
        ),
        recipient: fc.oneof(
          fc.record({ first_name: nasty(), last_name: nasty(), email: nasty() }),
          fc.jsonValue(),
        ),
        based_on_version: fc.oneof(fc.integer({ min: -2, max: 3 }), nasty()),
      },
      { requiredKeys: [] },
    )
    .map((request) => JSON.stringify(request));

/** A body: none, JSON of any shape, deep JSON, bytes, or multipart with parts right, wrong or missing. */
const bodyOf = (target: FuzzTarget): fc.Arbitrary<Body | undefined> => {
  const text = (value: string, contentType?: string): Body => ({
    bytes: Buffer.from(value),
    ...(contentType && { contentType }),
  });
  const part = fc.record({
    name: fc.oneof(fc.constantFrom('file', 'request', ''), nasty()),
    filename: fc.option(fc.constantFrom('c.pdf', '', '../x'), { nil: undefined }),
    contentType: fc.option(fc.constantFrom('application/pdf', 'application/json', 'text/plain'), {
      nil: undefined,
    }),
    content: fc.oneof(
      fc.constant(target.pdf),
      fc.json().map((json) => Buffer.from(json)),
      fc.uint8Array({ maxLength: 64 }),
      fc.constant(Buffer.from(`{"answers":${nestedJson(3_000)}}`)),
    ),
  });
  const upload = fc
    .tuple(contractRequest(), fc.oneof(fc.constant(target.pdf), fc.uint8Array({ maxLength: 64 })))
    .map(([request, file]): Body => {
      const built = multipart([
        { name: 'request', contentType: 'application/json', content: request },
        { name: 'file', filename: 'contract.pdf', contentType: 'application/pdf', content: file },
      ]);
      return { bytes: built.body, contentType: built.contentType, multipart: true };
    });
  return fc.oneof(
    fc.constant(undefined),
    upload,
    upload,
    fc.json().map((json) => text(json, 'application/json')),
    fc
      .jsonValue()
      .map((value) => text(JSON.stringify({ answers: value, reference: value }), 'application/json')),
    fc.integer({ min: 100, max: 20_000 }).map((depth) => text(nestedJson(depth), 'application/json')),
    fc.uint8Array({ maxLength: 256 }).map((bytes) => ({ bytes })),
    fc.array(part, { maxLength: 3 }).map((parts): Body => {
      const built = multipart(parts as Part[]);
      return { bytes: built.body, contentType: built.contentType, multipart: true };
    }),
  );
};

export interface FuzzRequest {
  host: Host;
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
}

/** Any request to any address of the stack. */
export const requestOf = (target: FuzzTarget): fc.Arbitrary<FuzzRequest> =>
  fc
    .constantFrom<Host>('api', 'api', 'api', 'frame', 'pages')
    .chain((host) => fc.tuple(fc.constant(host), fc.constantFrom(...target.bases[host])))
    .chain(([host, base]) =>
      fc.record({
        host: fc.constant(host),
        base: fc.constant(base),
        target: targetOf(host),
        query: queryOf(),
        credential: fc.oneof(
          { arbitrary: fc.constant(target.accepted[base] ?? ''), weight: 6 },
          { arbitrary: fc.constantFrom(...target.credentials), weight: 2 },
          { arbitrary: nasty(), weight: 1 },
          { arbitrary: fc.constant(undefined), weight: 1 },
        ),
        scheme: fc.oneof(
          { arbitrary: fc.constant('Bearer '), weight: 8 },
          { arbitrary: fc.constantFrom('bearer ', 'Basic ', ''), weight: 1 },
        ),
        idempotencyKey: fc.oneof(
          { arbitrary: fc.uuid(), weight: 4 },
          { arbitrary: fc.option(nasty(), { nil: undefined }), weight: 1 },
        ),
        digest: fc.oneof(
          { arbitrary: fc.constant('right' as const), weight: 4 },
          { arbitrary: fc.constantFrom('wrong' as const, 'garbage' as const, undefined), weight: 1 },
        ),
        contentType: fc.option(
          fc.oneof(fc.constantFrom('multipart/form-data', 'application/json'), nasty()),
          {
            nil: undefined,
          },
        ),
        body: bodyOf(target),
        // The frame API's own: what a browser says of the request, and the binding it carries.
        fetchSite: fc.oneof(
          { arbitrary: fc.constant('same-origin'), weight: 6 },
          { arbitrary: fc.constantFrom('cross-site', 'same-site', 'none', undefined), weight: 3 },
          { arbitrary: nasty(), weight: 1 },
        ),
        origin: fc.oneof(
          { arbitrary: fc.constant(undefined), weight: 4 },
          { arbitrary: fc.constantFrom(...target.bases.frame, ...target.bases.api, 'null'), weight: 2 },
          { arbitrary: nasty(), weight: 1 },
        ),
        cookie: fc.oneof(
          { arbitrary: fc.constant(undefined), weight: 3 },
          { arbitrary: fc.constantFrom(...target.cookies), weight: 3 },
          {
            arbitrary: fc
              .stringMatching(/^[A-Za-z0-9]{32}$/)
              .map((random) => `onboarding_browser=onbb_${random}`),
            weight: 2,
          },
          { arbitrary: nasty().map((text) => `onboarding_browser=${text}`), weight: 1 },
        ),
      }),
    )
    .map((r) => {
      const headers: Record<string, string> = {};
      const safe = (value: string) => value.replace(/[^\x20-\x7e]/g, '').slice(0, 4_000);
      if (r.credential !== undefined) headers.authorization = safe(`${r.scheme}${r.credential}`);
      if (r.idempotencyKey !== undefined) headers['idempotency-key'] = safe(r.idempotencyKey);
      const { method, path } = r.target;
      const bytes = method === 'GET' || method === 'HEAD' ? undefined : r.body?.bytes;
      if (bytes && r.digest !== undefined)
        headers['content-digest'] =
          r.digest === 'right'
            ? contentDigest(bytes)
            : r.digest === 'wrong'
              ? contentDigest(Buffer.from('other'))
              : 'sha-256=:nope:';
      const contentType = r.body?.contentType ?? r.contentType;
      if (bytes && contentType !== undefined) headers['content-type'] = safe(contentType);
      if (r.host === 'frame') {
        if (r.fetchSite !== undefined) headers['sec-fetch-site'] = safe(r.fetchSite);
        if (r.origin !== undefined) headers.origin = safe(r.origin);
        if (r.cookie !== undefined) headers.cookie = safe(r.cookie);
      }
      return { host: r.host, url: `${r.base}${path}${r.query}`, method, headers, body: bytes };
    });

/** Static files (the hosted pages, the frame's own page and assets), served deployed by CloudFront. */
const isStaticFile = (request: FuzzRequest): boolean =>
  request.host === 'pages' || (request.host === 'frame' && !new URL(request.url).pathname.startsWith('/api'));

/**
 * What is wrong with the answer to `request`, or null when it is the service's own: never a 5xx; from
 * the API (its addresses, `/onboarding.js` and the frame API) a `Service-Request-Id`, and on an error
 * the JSON error body.
 */
export const faultOf = async (
  request: FuzzRequest,
  response: Response,
  storedAnswers: readonly string[] = [],
): Promise<string | null> => {
  const text = await response.text();
  if (response.status >= 500) return `${response.status}: ${text.slice(0, 300)}`;
  const seen = storedAnswers.find((marker) => text.includes(marker));
  if (seen !== undefined)
    return `${response.status} shows a stored answer (${seen}) to a request without its browser`;
  if (isStaticFile(request)) return null;
  const id = response.headers.get('service-request-id');
  if (!id || !/^rqs_[A-Za-z0-9]+$/.test(id)) return `${response.status} without a Service-Request-Id`;
  if (response.status < 400 || request.method === 'HEAD') return null;
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.code === 'string' && typeof body.error.message === 'string') return null;
  } catch {
    // Not JSON: said below.
  }
  return `${response.status} without the JSON error body: ${text.slice(0, 200)}`;
};

export interface FuzzFigures {
  cases: number;
  seconds: number;
  /** Answers by status. */
  statuses: Record<string, number>;
  /** Requests refused before an answer (the HTTP client's own refusal of what it cannot send). */
  unsent: number;
  /** Answers of the frame API (`/api/…` on a frame address), by status. */
  frameApi: Record<string, number>;
}

/**
 * Sends `numRuns` generated requests and throws at the first fault with that request, unshrunk
 * (`endOnFailure`: shrinking would send many more to a live stack) and the seed and path that
 * replay it. Answers the figures of the run.
 */
export const fuzz = async (
  target: FuzzTarget,
  options: { seed: number; numRuns: number },
): Promise<FuzzFigures> => {
  const figures: FuzzFigures = { cases: 0, seconds: 0, statuses: {}, unsent: 0, frameApi: {} };
  const started = performance.now();
  await fc.assert(
    fc.asyncProperty(requestOf(target), async (request) => {
      figures.cases += 1;
      let response: Response;
      try {
        response = await fetch(request.url, {
          method: request.method,
          headers: request.headers,
          ...(request.body && { body: Buffer.from(request.body) }),
          redirect: 'manual',
        });
      } catch (error) {
        // undici refuses some requests before sending them (a header value it will not write): not ours.
        if (error instanceof TypeError && !(error.cause instanceof Error && 'code' in error.cause)) {
          figures.unsent += 1;
          return;
        }
        throw error;
      }
      figures.statuses[response.status] = (figures.statuses[response.status] ?? 0) + 1;
      if (request.host === 'frame' && new URL(request.url).pathname.startsWith('/api'))
        figures.frameApi[response.status] = (figures.frameApi[response.status] ?? 0) + 1;
      const fault = await faultOf(request, response, target.storedAnswers);
      if (fault) throw new Error(`${request.method} ${request.url.slice(0, 300)}: ${fault}`);
    }),
    { seed: options.seed, numRuns: options.numRuns, endOnFailure: true },
  );
  figures.seconds = (performance.now() - started) / 1000;
  return figures;
};
