// adapters -> the back office's HTTP API in process (`app.request()`), over DynamoDB Local and the local
// S3 server: who may call each route (no session, an integrator's portal session, a person with no staff
// role, lawyer, operator, admin, and records of the other environment), changes only with the session's
// CSRF token from the back office's own origin, a stale draft refused with 409 `draft_conflict` and
// nothing lost, publishing (and a second publish refused), and the audit log showing what the routes did.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { createS3Client, ensureBucket } from '../../lambdas/adapters/blobs/s3-client';
import {
  answerVaultOver,
  blobStoreOver,
  composeCommonPorts,
  composeDirectory,
  workflowsOver,
} from '../../lambdas/adapters/compose';
import { DynamoDbIdempotencyStore } from '../../lambdas/adapters/dynamodb/idempotency-store';
import { DynamoDbPortalSessionStore } from '../../lambdas/adapters/dynamodb/portal-session-store';
import { systemClock } from '../../lambdas/adapters/system-clock';
import { appFiles } from '../../lambdas/api/http/served-files';
import { type BackOfficeApp, backOfficeApp } from '../../lambdas/back-office/app';
import type { BackOfficeEnvironmentPorts } from '../../lambdas/back-office/routes';
import { MAX_SHOWN_PAGES } from '../../lambdas/core/back-office/contract-changes';
import { OPERATOR_TOOL, STAFF_ACTIONS } from '../../lambdas/core/back-office/roles';
import { putStaffMember } from '../../lambdas/core/back-office/staff';
import { putJson, putText, readText } from '../../lambdas/core/blobs';
import { artifacts } from '../../lambdas/core/contracts/artifacts';
import type { ContractReview, Environment, Micros, Onboarding } from '../../lambdas/core/model';
import { openOnboardingSession, submitOnboarding } from '../../lambdas/core/onboarding';
import { createOrganisation } from '../../lambdas/core/organisations';
import type { Person } from '../../lambdas/core/people/person';
import type { PortalSessionStore } from '../../lambdas/core/portal-sessions';
import type { WorkflowRun } from '../../lambdas/core/ports';
import { portalApp } from '../../lambdas/portal/app';
import { type LocalS3, startLocalS3 } from '../../local/emulators/s3-server';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { completion, contractReview, contractVersion, id, SECOND, scopeIn } from '../support/fixtures';

const db = useTestDynamoDb();

const ORIGIN = 'http://127.0.0.1:3008';
/** Stand-ins for a page image's and a PDF's bytes: the routes stream whatever the store holds. */
const PAGE_IMAGE = 'RIFF-page-image';
const PDF_BYTES = '%PDF-1.7 contract';

const FILES = appFiles({
  files: [
    {
      path: 'index.html',
      contentType: 'text/html; charset=utf-8',
      body: new TextEncoder().encode('<!doctype html><title>Back office</title>'),
    },
  ],
});
const LAWYER = 'lawyer@example.com';
const OPERATOR = 'operator@example.com';
const ADMIN = 'admin@example.com';
/** Every role at once: what the other environment's records are tried with. */
const ALL_ROLES = 'everything@example.com';
const INTEGRATOR = 'dev@example.com';

let directory: string;
let s3: LocalS3;
let s3Client: S3Client;

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'back-office-http-'));
  s3 = await startLocalS3(directory, 0);
  s3Client = createS3Client({ region: 'us-east-1', endpoint: s3.endpoint });
  await ensureBucket(s3Client, 'blobs');
});

afterAll(async () => {
  s3Client.destroy();
  await s3.stop();
  await rm(directory, { recursive: true, force: true });
});

const hashOf = (value: string): string => createHash('sha256').update(value).digest('base64url');

/** The sign-in is the portal's (tested there); these tests sign people in by writing their session. */
const noSignIn = {
  start: async () => {
    throw new Error('not signed in through the provider here');
  },
  finish: async () => {
    throw new Error('not signed in through the provider here');
  },
  endSessionUrl: async () => 'http://127.0.0.1:3007/session/end',
};

interface Caller {
  /** The `Cookie` header. */
  cookie?: string;
  csrf?: string;
}

const T0 = 1_790_000_000_000_000;
const answersKey = randomBytes(32);

const setUp = async () => {
  const clock = systemClock();
  const identityTable = await db.freshTable();
  const started: WorkflowRun[] = [];
  const portsOf = async (environment: Environment) => {
    const tableName = await db.freshTable();
    const common = composeCommonPorts({ environment, dynamo: db.doc, tableName, requestHistory: 'off' });
    const ports = {
      ...common,
      blobs: blobStoreOver(s3Client, 'blobs'),
      workflows: workflowsOver({
        start: async (run) => {
          started.push(run);
        },
        completeWait: async () => undefined,
        failWait: async () => undefined,
      }),
      answerVault: answerVaultOver(async () => answersKey),
    };
    return { ports, idempotency: new DynamoDbIdempotencyStore(db.doc, tableName, ports.clock) };
  };
  const production = await portsOf('production');
  const sandbox = await portsOf('sandbox');
  const environments: Record<Environment, BackOfficeEnvironmentPorts> = {
    production: production.ports,
    sandbox: sandbox.ports,
  };
  const people = composeDirectory(db.doc, identityTable);
  const sessions = new DynamoDbPortalSessionStore(db.doc, identityTable, clock, 'back_office');
  const portalSessions = new DynamoDbPortalSessionStore(db.doc, identityTable, clock);
  const app = backOfficeApp({
    origin: ORIGIN,
    cookies: { secure: false },
    core: { directory: people, environments },
    sessions,
    signIn: noSignIn,
    clock,
    files: FILES,
  });
  await putStaffMember(people, OPERATOR_TOOL, LAWYER, ['lawyer']);
  await putStaffMember(people, OPERATOR_TOOL, OPERATOR, ['operator']);
  await putStaffMember(people, OPERATOR_TOOL, ADMIN, ['admin']);
  await putStaffMember(people, OPERATOR_TOOL, ALL_ROLES, ['lawyer', 'operator', 'admin']);

  /** A session for `email` in `store`, sent under `cookieName`. */
  const signIn = async (
    email: string,
    store: PortalSessionStore = sessions,
    cookieName = 'back_office_session',
  ): Promise<Caller> => {
    const value = randomBytes(32).toString('base64url');
    const csrf = randomBytes(32).toString('base64url');
    const now = clock.now();
    await store.putSession({
      id: hashOf(value),
      personId: id('per_'),
      email,
      csrfToken: csrf,
      createdAt: now,
      expiresAt: now + 3600 * SECOND,
    });
    return { cookie: `${cookieName}=${value}`, csrf };
  };

  /** A review due in `environment`, its analysis drafted. */
  const dueReview = async (environment: Environment = 'production', requestedAt: Micros = T0) => {
    const { ports, idempotency } = environment === 'production' ? production : sandbox;
    const review = contractReview(scopeIn(environment), requestedAt - SECOND, {
      processing: { state: 'completed', completedAt: requestedAt, failureReason: null, failedAt: null },
      analysis: { state: 'completed', completedAt: requestedAt, failureReason: null, failedAt: null },
      lawyerReview: { state: 'requested', requestedAt, completedAt: null },
      updatedAt: requestedAt,
    });
    await record(ports, idempotency, review);
    await putText(
      ports.blobs,
      artifacts.analysisMarkdown(review.id, 1),
      `# Analysis of ${review.id}\n`,
      'text/markdown',
    );
    // Its one rendered page (manifest and image) and its PDF, as processing and the upload leave them.
    const image = { key: `${artifacts.pagesPrefix(review.id, 1)}page-1.webp`, width: 10, height: 14 };
    await putText(ports.blobs, image.key, PAGE_IMAGE, 'image/webp');
    await putJson(ports.blobs, artifacts.manifest(review.id, 1), {
      contractReviewId: review.id,
      version: 1,
      pageCount: 1,
      pages: [
        {
          number: 1,
          widthPoints: 595,
          heightPoints: 842,
          image: { ...image, contentType: 'image/webp' },
          thumbnail: { ...image, contentType: 'image/webp' },
          text: [{ text: 'Contract of Sale', x: 0.1, y: 0.1, width: 0.3, height: 0.02 }],
        },
      ],
    });
    await putText(ports.blobs, contractVersion(review, 1, T0).blobKey, PDF_BYTES, 'application/pdf');
    return review;
  };

  /**
   * A review due at version 2 whose `pages` pages each have one line changed since version 1 (the two
   * versions' rendered manifests, as processing leaves them).
   */
  const changedThroughout = async (pages: number) => {
    const review = contractReview(scopeIn('production'), T0, {
      version: 2,
      lawyerReview: { state: 'requested', requestedAt: T0, completedAt: null },
    });
    await record(production.ports, production.idempotency, review);
    for (const version of [1, 2])
      await putJson(production.ports.blobs, artifacts.manifest(review.id, version), {
        contractReviewId: review.id,
        version,
        pageCount: pages,
        pages: Array.from({ length: pages }, (_, n) => ({
          number: n + 1,
          widthPoints: 595,
          heightPoints: 842,
          image: { key: `page-${n + 1}.webp`, width: 10, height: 14, contentType: 'image/webp' },
          thumbnail: { key: `thumb-${n + 1}.webp`, width: 10, height: 14, contentType: 'image/webp' },
          text: [
            { text: `Clause ${n + 1}.`, x: 0.1, y: 0.1, width: 0.3, height: 0.02 },
            { text: `Version ${version}.`, x: 0.1, y: 0.2, width: 0.3, height: 0.02 },
          ],
        })),
      });
    return review;
  };

  /** A review in production whose contract viewer is live. */
  const liveReview = async () => {
    const review = contractReview(scopeIn('production'), T0, {
      review: null,
      lawyerReview: null,
      publications: [
        {
          channel: 'contract_viewer',
          state: 'published',
          slug: id('s'),
          url: `https://pages.example/${id('s')}`,
          publishedAt: T0,
        },
      ],
    });
    await record(production.ports, production.idempotency, review);
    return review;
  };

  /** A production sign-up, submitted. */
  const signUp = async (): Promise<Onboarding> => {
    const { ports } = production;
    const session = await openOnboardingSession(ports, scopeIn('production'), id('ref-'));
    const opened = (await ports.onboardings.get(session.id)) as Onboarding;
    return submitOnboarding(ports, opened, [
      { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', mobile: null },
    ]);
  };

  const newOrganisation = async (): Promise<string> => {
    const person: Person = {
      id: id('per_'),
      email: `${id('p')}@example.com`,
      passwordHash: '$scrypt$placeholder',
      createdAt: clock.now(),
      organisationId: null,
    };
    await people.people.create(person);
    return (await createOrganisation(people, person.id, 'Harbour Conveyancing')).id;
  };

  return {
    app,
    people,
    environments,
    started,
    portalSessions,
    signIn,
    dueReview,
    changedThroughout,
    liveReview,
    signUp,
    newOrganisation,
  };
};

type Setup = Awaited<ReturnType<typeof setUp>>;

const record = async (
  ports: BackOfficeEnvironmentPorts,
  idempotency: DynamoDbIdempotencyStore,
  review: ContractReview,
): Promise<void> => {
  const key = id('idem-');
  await idempotency.claim(review.scope, key, `fp-${key}`);
  await ports.contractReviews.create({
    review,
    version: contractVersion(review, 1, review.createdAt),
    idempotency: completion(review.scope, key, `fp-${key}`),
  });
};

interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body?: unknown;
}

const send = (app: BackOfficeApp, call: Call, caller: Caller, origin: string | null = ORIGIN) => {
  const headers: Record<string, string> = {};
  if (caller.cookie) headers.Cookie = caller.cookie;
  if (call.method !== 'GET') {
    if (caller.csrf) headers['X-CSRF-Token'] = caller.csrf;
    if (origin !== null) headers.Origin = origin;
    headers['Content-Type'] = 'application/json';
  }
  return app.request(call.path, {
    method: call.method,
    headers,
    ...(call.method !== 'GET' && { body: JSON.stringify(call.body ?? {}) }),
  });
};

/** One route of the API: how to make a request to it for a fresh target, in `environment`'s path. */
interface RouteCase {
  name: string;
  make(setup: Setup, environment: Environment): Promise<Call>;
  /** The status for each staff member of one role (others: 403). */
  allowed: { lawyer?: number; operator?: number; admin?: number };
  /** The status when the target is the other environment's (undefined: the route has no environment). */
  otherEnvironment?: number;
}

const ROUTES: RouteCase[] = [
  {
    name: 'GET reviews',
    make: async (s, e) => {
      await s.dueReview();
      return { method: 'GET', path: `/api/${e}/reviews?limit=10` };
    },
    allowed: { lawyer: 200 },
    otherEnvironment: 200,
  },
  {
    name: 'GET the reviews’ summary',
    make: async (s, e) => {
      await s.dueReview();
      return { method: 'GET', path: `/api/${e}/reviews/summary` };
    },
    allowed: { lawyer: 200 },
    otherEnvironment: 200,
  },
  {
    name: 'GET a review',
    make: async (s, e) => ({ method: 'GET', path: `/api/${e}/reviews/${(await s.dueReview()).id}` }),
    allowed: { lawyer: 200 },
    otherEnvironment: 404,
  },
  {
    name: 'GET a review’s contract',
    make: async (s, e) => ({ method: 'GET', path: `/api/${e}/reviews/${(await s.dueReview()).id}/contract` }),
    allowed: { lawyer: 200 },
    otherEnvironment: 404,
  },
  {
    name: 'GET what changed since a version',
    make: async (s, e) => ({
      method: 'GET',
      path: `/api/${e}/reviews/${(await s.dueReview()).id}/changes?since=1`,
    }),
    allowed: { lawyer: 200 },
    otherEnvironment: 404,
  },
  {
    name: 'GET a page image',
    make: async (s, e) => ({
      method: 'GET',
      path: `/api/${e}/reviews/${(await s.dueReview()).id}/versions/1/pages/1`,
    }),
    allowed: { lawyer: 200 },
    otherEnvironment: 404,
  },
  {
    name: 'GET the PDF',
    make: async (s, e) => ({
      method: 'GET',
      path: `/api/${e}/reviews/${(await s.dueReview()).id}/versions/1/pdf`,
    }),
    allowed: { lawyer: 200 },
    otherEnvironment: 404,
  },
  {
    name: 'POST assign',
    make: async (s, e) => ({ method: 'POST', path: `/api/${e}/reviews/${(await s.dueReview()).id}/assign` }),
    allowed: { lawyer: 200 },
    otherEnvironment: 404,
  },
  {
    name: 'PUT draft',
    make: async (s, e) => ({
      method: 'PUT',
      path: `/api/${e}/reviews/${(await s.dueReview()).id}/draft`,
      body: { text: 'My review', based_on_revision: 0 },
    }),
    allowed: { lawyer: 200 },
    otherEnvironment: 404,
  },
  {
    name: 'POST publish',
    make: async (s, e) => ({
      method: 'POST',
      path: `/api/${e}/reviews/${(await s.dueReview()).id}/publish`,
      body: { text: 'Reviewed.' },
    }),
    allowed: { lawyer: 200 },
    otherEnvironment: 404,
  },
  {
    name: 'GET sign-ups',
    make: async (s, e) => {
      await s.signUp();
      return { method: 'GET', path: `/api/${e}/sign-ups` };
    },
    allowed: { operator: 200 },
    otherEnvironment: 200,
  },
  {
    name: 'GET a sign-up',
    make: async (s, e) => ({ method: 'GET', path: `/api/${e}/sign-ups/${(await s.signUp()).id}` }),
    allowed: { operator: 200 },
    otherEnvironment: 404,
  },
  {
    name: 'POST accept',
    make: async (s, e) => ({ method: 'POST', path: `/api/${e}/sign-ups/${(await s.signUp()).id}/accept` }),
    allowed: { operator: 200 },
    otherEnvironment: 404,
  },
  {
    name: 'GET contracts search',
    make: async (s, e) => ({ method: 'GET', path: `/api/${e}/contracts?q=${(await s.liveReview()).id}` }),
    allowed: { operator: 200 },
    otherEnvironment: 200,
  },
  {
    name: 'GET a contract',
    make: async (s, e) => ({ method: 'GET', path: `/api/${e}/contracts/${(await s.liveReview()).id}` }),
    allowed: { operator: 200 },
    otherEnvironment: 404,
  },
  {
    name: 'POST withdraw',
    make: async (s, e) => ({
      method: 'POST',
      path: `/api/${e}/contracts/${(await s.liveReview()).id}/withdraw`,
      body: { channel: 'contract_viewer', reason: 'Sent by mistake' },
    }),
    allowed: { operator: 200 },
    otherEnvironment: 404,
  },
  {
    name: 'GET organisations',
    make: async (s, e) => {
      await s.newOrganisation();
      return { method: 'GET', path: `/api/${e}/organisations?limit=5` };
    },
    allowed: { operator: 200 },
    otherEnvironment: 200,
  },
  {
    name: 'GET an organisation',
    make: async (s, e) => ({ method: 'GET', path: `/api/${e}/organisations/${await s.newOrganisation()}` }),
    allowed: { operator: 200 },
    // An organisation and its sandbox budget span both environments.
    otherEnvironment: 200,
  },
  {
    name: 'PUT budget',
    make: async (s, e) => ({
      method: 'PUT',
      path: `/api/${e}/organisations/${await s.newOrganisation()}/budget`,
      body: { total: 9 },
    }),
    allowed: { operator: 200 },
    otherEnvironment: 200,
  },
  {
    name: 'GET audit log',
    make: async (_, e) => ({ method: 'GET', path: `/api/${e}/audit-log?limit=5` }),
    allowed: { operator: 200, admin: 200 },
    otherEnvironment: 200,
  },
  {
    name: 'GET staff',
    make: async () => ({ method: 'GET', path: '/api/staff' }),
    allowed: { admin: 200 },
  },
  {
    name: 'PUT staff',
    make: async () => ({
      method: 'PUT',
      path: `/api/staff/${encodeURIComponent(`${id('new')}@example.com`)}`,
      body: { roles: ['lawyer'] },
    }),
    allowed: { admin: 200 },
  },
  {
    name: 'DELETE staff',
    make: async (s) => {
      const email = `${id('gone')}@example.com`;
      await putStaffMember(s.people, OPERATOR_TOOL, email, ['lawyer']);
      return { method: 'DELETE', path: `/api/staff/${encodeURIComponent(email)}` };
    },
    allowed: { admin: 200 },
  },
];

const codeOf = async (response: Response): Promise<string | undefined> =>
  response.headers.get('content-type')?.startsWith('application/json')
    ? ((await response.clone().json()) as { error?: { code: string } }).error?.code
    : undefined;

describe('the authorisation matrix', () => {
  // One set of tables for the matrix: each cell makes its own target, so no cell sees another's change.
  let shared: Promise<Setup> | undefined;
  it.each(ROUTES.map((route) => [route.name, route] as const))('%s', async (_, route) => {
    shared ??= setUp();
    const setup = await shared;
    const { app } = setup;
    const callers: Record<string, Caller> = {
      none: {},
      // An integrator's portal session: under the portal's cookie, and its value under the back office's.
      portalCookie: await setup.signIn(INTEGRATOR, setup.portalSessions, 'portal_session'),
      portalValue: await setup.signIn(INTEGRATOR, setup.portalSessions),
      noRole: await setup.signIn(INTEGRATOR),
      lawyer: await setup.signIn(LAWYER),
      operator: await setup.signIn(OPERATOR),
      admin: await setup.signIn(ADMIN),
    };
    const expected: Record<string, [number, string | undefined]> = {
      none: [401, 'authentication_required'],
      portalCookie: [401, 'authentication_required'],
      portalValue: [401, 'authentication_required'],
      noRole: [403, 'staff_only'],
    };
    for (const role of ['lawyer', 'operator', 'admin'] as const) {
      const status = route.allowed[role];
      expected[role] = status === undefined ? [403, 'role_required'] : [status, undefined];
    }
    // One target for the cell's callers: those refused change nothing, and each route that changes
    // anything allows one role, whose change the callers after it do not reach (roles are checked first).
    const target = await route.make(setup, 'production');
    const seen: Record<string, [number, string | undefined]> = {};
    for (const [name, caller] of Object.entries(callers)) {
      const response = await send(app, target, caller);
      seen[name] = [response.status, await codeOf(response)];
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
    expect(seen).toEqual(expected);

    if (route.otherEnvironment !== undefined) {
      // Made in production, asked for in the sandbox: another environment's records are not here.
      const response = await send(app, await route.make(setup, 'sandbox'), await setup.signIn(ALL_ROLES));
      expect([response.status, await codeOf(response)]).toEqual([
        route.otherEnvironment,
        route.otherEnvironment === 404 ? 'not_found' : undefined,
      ]);
    }
  });

  it('serves a review’s contract to a lawyer: its pages’ text, the analysis, each page’s image and the PDF', async () => {
    const setup = await setUp();
    const lawyer = await setup.signIn(LAWYER);
    const review = await setup.dueReview();
    const get = (path: string) => send(setup.app, { method: 'GET', path }, lawyer);
    const base = `/api/production/reviews/${review.id}`;
    expect(await (await get(`${base}/contract`)).json()).toEqual({
      id: review.id,
      version: 1,
      current_version: 1,
      pages: [{ number: 1, width: 10, height: 14, text: 'Contract of Sale' }],
      analysis_markdown: `# Analysis of ${review.id}\n`,
    });
    const image = await get(`${base}/versions/1/pages/1`);
    expect([image.status, image.headers.get('content-type'), await image.text()]).toEqual([
      200,
      'image/webp',
      PAGE_IMAGE,
    ]);
    const pdf = await get(`${base}/versions/1/pdf`);
    expect([pdf.status, pdf.headers.get('content-disposition'), await pdf.text()]).toEqual([
      200,
      `attachment; filename="${review.id}-v1.pdf"`,
      PDF_BYTES,
    ]);
    // What changed since version 1, at version 1: one page, unchanged.
    expect(await (await get(`${base}/changes?since=1`)).json()).toEqual({
      id: review.id,
      since: 1,
      version: 1,
      pages: [{ kind: 'unchanged', count: 1, after_first: 1, after_last: 1 }],
      not_shown: null,
    });
    expect((await get(`${base}/changes`)).status).toBe(400);
    // No such page, version or review: 404, whatever the path holds.
    for (const path of [
      `${base}/changes?since=2`,
      `${base}/versions/1/pages/2`,
      `${base}/versions/2/pages/1`,
      `${base}/versions/0/pdf`,
      `${base}/contract?version=2`,
      '/api/production/reviews/crv_unknown/versions/1/pdf',
    ])
      expect([path, (await get(path)).status]).toEqual([path, 404]);
  });

  it('caps what changed: the first pages changed, the rest counted for the PDFs', async () => {
    const setup = await setUp();
    const lawyer = await setup.signIn(LAWYER);
    const review = await setup.changedThroughout(MAX_SHOWN_PAGES + 30);
    const answer = await send(
      setup.app,
      { method: 'GET', path: `/api/production/reviews/${review.id}/changes?since=1` },
      lawyer,
    );
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as {
      pages: Array<{ kind: string; after: number }>;
      not_shown: unknown;
    };
    expect(body.pages).toHaveLength(MAX_SHOWN_PAGES);
    expect(body.pages.every((page) => page.kind === 'changed')).toBe(true);
    expect(body.pages.at(-1)?.after).toBe(MAX_SHOWN_PAGES);
    expect(body.not_shown).toEqual({ pages: 30, from_page: MAX_SHOWN_PAGES + 1 });
  });

  it('lists only the environment’s own records, and knows no other environment', async () => {
    const setup = await setUp();
    const everything = await setup.signIn(ALL_ROLES);
    const made = await setup.dueReview('production');
    await setup.signUp();
    const get = async (path: string) => {
      const response = await send(setup.app, { method: 'GET', path }, everything);
      return [response.status, await response.json()] as const;
    };
    expect(await get('/api/production/reviews')).toEqual([
      200,
      { data: [expect.objectContaining({ id: made.id })], has_more: false },
    ]);
    expect(await get('/api/sandbox/reviews')).toEqual([200, { data: [], has_more: false }]);
    expect(await get('/api/production/reviews/summary')).toEqual([
      200,
      { due: 1, due_counted_all: true, newest: expect.objectContaining({ id: made.id }) },
    ]);
    expect(await get('/api/sandbox/reviews/summary')).toEqual([
      200,
      { due: 0, due_counted_all: true, newest: null },
    ]);
    expect((await get('/api/production/reviews/summary?limit=1'))[0]).toBe(400);
    expect((await get('/api/production/sign-ups'))[1].data).toHaveLength(1);
    expect(await get('/api/sandbox/sign-ups')).toEqual([200, { data: [], has_more: false }]);
    expect(await get(`/api/sandbox/contracts?q=${made.id}`)).toEqual([200, { data: [] }]);
    expect(await get('/api/staging/reviews')).toEqual([
      404,
      { error: expect.objectContaining({ code: 'not_found' }) },
    ]);
    expect((await get('/api/production/nothing'))[0]).toBe(404);
    const wrong = await send(setup.app, { method: 'DELETE', path: '/api/production/reviews' }, everything);
    expect([wrong.status, wrong.headers.get('allow'), await codeOf(wrong)]).toEqual([
      405,
      'GET',
      'method_not_allowed',
    ]);
  });

  it('answers who is signed in, to anyone; a back-office session is no portal session', async () => {
    const setup = await setUp();
    const session = async (caller: Caller) =>
      (await send(setup.app, { method: 'GET', path: '/api/session' }, caller)).json();
    expect(await session({})).toEqual({
      signed_in: false,
      email: null,
      roles: [],
      actions: [],
      csrf_token: null,
    });
    expect(await session(await setup.signIn(INTEGRATOR, setup.portalSessions, 'portal_session'))).toEqual(
      expect.objectContaining({ signed_in: false }),
    );
    const integrator = await setup.signIn(INTEGRATOR);
    expect(await session(integrator)).toEqual({
      signed_in: true,
      email: INTEGRATOR,
      roles: [],
      actions: [],
      csrf_token: integrator.csrf,
    });
    // The actions a session's roles allow, from the core's one table: what the pages may offer.
    expect(await session(await setup.signIn(LAWYER))).toEqual(
      expect.objectContaining({
        roles: ['lawyer'],
        actions: ['review.read', 'review.assign', 'review.save_draft', 'review.publish'],
      }),
    );
    const everything = await setup.signIn(ALL_ROLES);
    expect(await session(everything)).toEqual(
      expect.objectContaining({
        email: ALL_ROLES,
        roles: ['lawyer', 'operator', 'admin'],
        actions: STAFF_ACTIONS,
      }),
    );

    // The portal, over the same identity table, does not know a back-office session (nor its cookie).
    const portal = portalApp({
      origin: 'http://127.0.0.1:3006',
      cookies: { secure: false },
      core: {} as never,
      sessions: setup.portalSessions,
      signIn: {} as never,
      clock: systemClock(),
      files: new Map() as never,
    });
    const value = (everything.cookie as string).split('=')[1];
    for (const cookie of [`portal_session=${value}`, everything.cookie as string]) {
      const answer = await portal.request('/api/session', { headers: { cookie } });
      expect(await answer.json()).toEqual(expect.objectContaining({ signed_in: false }));
    }
  });

  it('takes a change only with the session’s CSRF token, from the back office’s own origin', async () => {
    const setup = await setUp();
    const lawyer = await setup.signIn(LAWYER);
    const review = await setup.dueReview();
    const assign: Call = { method: 'POST', path: `/api/production/reviews/${review.id}/assign` };
    const refused = async (caller: Caller, origin: string | null) => {
      const response = await send(setup.app, assign, caller, origin);
      return [response.status, await codeOf(response)];
    };
    expect(await refused({ cookie: lawyer.cookie }, ORIGIN)).toEqual([403, 'csrf_invalid']);
    expect(await refused({ cookie: lawyer.cookie, csrf: 'guess' }, ORIGIN)).toEqual([403, 'csrf_invalid']);
    expect(await refused(lawyer, 'http://127.0.0.1:3006')).toEqual([403, 'csrf_invalid']);
    const draft = await send(
      setup.app,
      { method: 'GET', path: `/api/production/reviews/${review.id}` },
      lawyer,
    );
    expect(((await draft.json()) as { draft: { assignee: string | null } }).draft.assignee).toBeNull();
    expect(await refused(lawyer, ORIGIN)).toEqual([200, undefined]);
  });
});

describe('the lawyer’s routes', () => {
  it('a stale draft save answers 409 draft_conflict and loses nothing; publish runs once', async () => {
    const setup = await setUp();
    const ana = await setup.signIn(LAWYER);
    const ben = await setup.signIn(ALL_ROLES);
    const review = await setup.dueReview();
    const path = `/api/production/reviews/${review.id}`;
    const read = async () =>
      (await (await send(setup.app, { method: 'GET', path }, ana)).json()) as {
        contract_review: { id: string; lawyer_review: { state: string } };
        draft: { text: string; revision: number; saved_by: string | null };
      };
    const opened = await read();
    expect(opened.contract_review.id).toBe(review.id);
    expect([opened.draft.text, opened.draft.revision, opened.draft.saved_by]).toEqual([
      `# Analysis of ${review.id}\n`,
      0,
      null,
    ]);

    const save = (caller: Caller, text: string, basedOn: number) =>
      send(
        setup.app,
        { method: 'PUT', path: `${path}/draft`, body: { text, based_on_revision: basedOn } },
        caller,
      );
    expect((await save(ana, 'Ana’s review', 0)).status).toBe(200);
    const stale = await save(ben, 'Ben’s review', 0);
    expect([stale.status, await codeOf(stale)]).toEqual([409, 'draft_conflict']);
    expect((await read()).draft).toEqual(
      expect.objectContaining({ text: 'Ana’s review', revision: 1, saved_by: LAWYER }),
    );

    // Publish without text: the saved draft is what is published, once.
    const publish = () => send(setup.app, { method: 'POST', path: `${path}/publish` }, ana);
    const published = await publish();
    expect(published.status).toBe(200);
    expect(((await published.json()) as { lawyer_review: { state: string } }).lawyer_review.state).toBe(
      'completed',
    );
    const ports = setup.environments.production;
    const textKey = (await ports.contractReviews.get(review.id))?.lawyerReview?.textKey as string;
    expect(await readText(ports.blobs, textKey)).toBe('Ana’s review');
    const again = await publish();
    expect([again.status, await codeOf(again)]).toEqual([409, 'action_refused']);
    expect(setup.started.filter((run) => run.kind === 'review')).toHaveLength(1);
    // A draft of a review no longer due is refused.
    const late = await save(ana, 'Too late', 1);
    expect([late.status, await codeOf(late)]).toEqual([400, 'request_invalid']);
  });

  it('refuses a body it cannot read with a clear code, writing nothing', async () => {
    const setup = await setUp();
    const lawyer = await setup.signIn(LAWYER);
    const review = await setup.dueReview();
    const path = `/api/production/reviews/${review.id}/draft`;
    const bad = async (body: unknown) => {
      const response = await send(setup.app, { method: 'PUT', path, body }, lawyer);
      return [response.status, await codeOf(response)];
    };
    expect(await bad({ text: 'x' })).toEqual([400, 'request_invalid']);
    expect(await bad({ text: 5, based_on_revision: 0 })).toEqual([400, 'request_invalid']);
    expect(await bad({ text: 'x', based_on_revision: 0, extra: true })).toEqual([400, 'request_invalid']);
    expect(await bad([])).toEqual([400, 'request_invalid']);
    // A body is declared as JSON (the portal's rule too); an empty change needs no type.
    const typed = async (type: string | null, body: string, on = path, method = 'PUT') => {
      const headers: Record<string, string> = { Cookie: lawyer.cookie as string, Origin: ORIGIN };
      headers['X-CSRF-Token'] = lawyer.csrf as string;
      if (type !== null) headers['Content-Type'] = type;
      const response = await setup.app.request(on, { method, headers, body });
      return [response.status, await codeOf(response)];
    };
    const valid = JSON.stringify({ text: 'x', based_on_revision: 0 });
    expect(await typed('text/plain', valid)).toEqual([400, 'request_invalid']);
    expect(await typed(null, valid)).toEqual([400, 'request_invalid']);
    const assign = `/api/production/reviews/${review.id}/assign`;
    expect(await typed(null, '', assign, 'POST')).toEqual([200, undefined]);
    const huge = await bad({ text: 'a'.repeat(1024 * 1024), based_on_revision: 0 });
    expect(huge).toEqual([413, 'payload_too_large']);
    const listed = await send(setup.app, { method: 'GET', path: '/api/production/reviews?limit=0' }, lawyer);
    expect([listed.status, await codeOf(listed)]).toEqual([400, 'limit_invalid']);
    const unknown = await send(setup.app, { method: 'GET', path: '/api/production/reviews?sort=x' }, lawyer);
    expect([unknown.status, await codeOf(unknown)]).toEqual([400, 'parameter_unknown']);
    const draft = await send(
      setup.app,
      { method: 'GET', path: `/api/production/reviews/${review.id}` },
      lawyer,
    );
    expect(((await draft.json()) as { draft: { revision: number } }).draft.revision).toBe(0);
  });
});

describe('the audit log', () => {
  it('shows what the routes did, newest first, filtered by staff member and by action', async () => {
    const setup = await setUp();
    const lawyer = await setup.signIn(LAWYER);
    const operator = await setup.signIn(OPERATOR);
    const admin = await setup.signIn(ADMIN);
    const review = await setup.dueReview();
    const live = await setup.liveReview();
    const onboarding = await setup.signUp();
    const organisation = await setup.newOrganisation();
    const call = async (caller: Caller, method: Call['method'], path: string, body?: unknown) => {
      const response = await send(setup.app, { method, path, body }, caller);
      expect([path, response.status]).toEqual([path, 200]);
      return response.json();
    };
    const p = '/api/production';
    await call(lawyer, 'POST', `${p}/reviews/${review.id}/assign`);
    await call(lawyer, 'PUT', `${p}/reviews/${review.id}/draft`, { text: 'Fine.', based_on_revision: 0 });
    await call(lawyer, 'POST', `${p}/reviews/${review.id}/publish`);
    await call(operator, 'POST', `${p}/sign-ups/${onboarding.id}/accept`);
    await call(operator, 'POST', `${p}/contracts/${live.id}/withdraw`, {
      channel: 'contract_viewer',
      reason: 'Sent by mistake',
    });
    await call(operator, 'PUT', `${p}/organisations/${organisation}/budget`, { total: 12 });
    await call(admin, 'PUT', `/api/staff/${encodeURIComponent('New@Example.com')}`, { roles: ['lawyer'] });

    type Log = {
      data: Array<{ staff: string; action: string; target: string; details: object }>;
      has_more: boolean;
    };
    const log = (await call(operator, 'GET', `${p}/audit-log?limit=100`)) as Log;
    // The budget is the sandbox's (it spans both environments), so it is in the sandbox's log.
    expect(log.data.map((entry) => [entry.staff, entry.action, entry.target])).toEqual([
      [ADMIN, 'staff.changed', 'new@example.com'],
      [OPERATOR, 'publication.withdrawn', live.id],
      [OPERATOR, 'signup.accepted', onboarding.id],
      [LAWYER, 'review.published', review.id],
      [LAWYER, 'review.draft_saved', review.id],
      [LAWYER, 'review.assigned', review.id],
      // The four staff members setUp made, by the operator tool.
      ...[ALL_ROLES, ADMIN, OPERATOR, LAWYER].map((email) => ['operator tool', 'staff.changed', email]),
    ]);
    expect(log.data[1]?.details).toEqual({ channel: 'contract_viewer', reason: 'Sent by mistake' });
    const sandbox = (await call(admin, 'GET', '/api/sandbox/audit-log?action=budget.set')) as Log;
    expect(sandbox.data.map((entry) => [entry.staff, entry.target, entry.details])).toEqual([
      [OPERATOR, organisation, { total_before: 3, total: 12 }],
    ]);
    const lawyers = (await call(admin, 'GET', `${p}/audit-log?staff=${LAWYER}&limit=2`)) as Log;
    expect([lawyers.data.map((entry) => entry.action), lawyers.has_more]).toEqual([
      ['review.published', 'review.draft_saved'],
      true,
    ]);
    const filtered = await send(setup.app, { method: 'GET', path: `${p}/audit-log?action=nothing` }, admin);
    expect([filtered.status, await codeOf(filtered)]).toEqual([400, 'filter_invalid']);
  });
});
