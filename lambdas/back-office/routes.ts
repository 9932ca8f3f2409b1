// back office -> its JSON routes (decisions.md §11), each a thin step from the request to one core use
// case called with the signed-in staff member as the actor: the role checks are the core's, and this
// layer reads the path, query and body and maps what the core refuses. Per environment (in the path,
// `/api/sandbox/…`, `/api/production/…`): the review queue, a review with its draft, assign, save
// draft, publish; sign-ups and accepting one; contract search, a contract with its versions, and
// withdrawing a publication; the organisations by name and an organisation's sandbox budget; the audit
// log. Staff (kept with the identity): `/api/staff`.
import { Hono } from 'hono';
import { listAuditLog } from '../core/back-office/audit-log';
import {
  getContractReview,
  getOrganisationBudget,
  getSignUp,
  listOrganisations,
  listSignUps,
  searchContractReviews,
} from '../core/back-office/operations';
import {
  readContractChanges,
  readReviewContract,
  reviewPageImage,
  reviewPdf,
} from '../core/back-office/review-contract';
import {
  assignReview,
  getReviewDraft,
  listReviewQueue,
  reviewQueueSummary,
  saveReviewDraft,
} from '../core/back-office/review-desk';
import type { Staff } from '../core/back-office/roles';
import { listStaff, putStaffMember, removeStaffMember } from '../core/back-office/staff';
import { readBlob } from '../core/blobs';
import { publishLawyerReview, withdrawChannel } from '../core/contracts/lawyer-actions';
import { ActionRefused, fail, notFound } from '../core/errors';
import { isContractReviewId } from '../core/ids';
import { CHANNELS, type Channel, ENVIRONMENTS, type Environment } from '../core/model';
import { acceptOnboarding } from '../core/onboarding';
import type { Directory } from '../core/organisations';
import type { PortalSession } from '../core/portal-sessions';
import type { Ports } from '../core/ports';
import { presentContractReview } from '../core/present';
import { setSandboxBudget } from '../core/sandbox-budget';

/** The ports the back office's use cases call in each environment; a route calling any other fails to compile. */
export type BackOfficeEnvironmentPorts = Pick<
  Ports,
  | 'environment'
  | 'backOffice'
  | 'contractReviews'
  | 'onboardings'
  | 'clients'
  | 'answerVault'
  | 'sandboxBudgets'
  | 'blobs'
  | 'workflows'
  | 'clock'
  | 'ids'
>;

export interface BackOfficeCore {
  /** The identity's staff (and their audit log) and organisations. */
  directory: Pick<Directory, 'staff' | 'organisations' | 'ids' | 'clock'>;
  environments: Readonly<Record<Environment, BackOfficeEnvironmentPorts>>;
}

export interface BackOfficeEnv {
  Variables: {
    requestId: string;
    session: PortalSession;
    actor: Staff;
    /** The change's JSON body, `{}` for a read. */
    body: Readonly<Record<string, unknown>>;
  };
}

/** A path's id: what an id of this service can be (anything else is no id here: 404). */
const ID = /^[A-Za-z0-9_-]{1,100}$/;

const json = (requestId: string, body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Service-Request-Id': requestId },
  });

/** The query's parameters, refusing any but `allowed` (`parameter_unknown`) and a repeated one. */
const readQuery = (url: string, allowed: readonly string[]): Record<string, string | undefined> => {
  const params = new URL(url).searchParams;
  const read: Record<string, string | undefined> = {};
  for (const [name, value] of params) {
    if (!allowed.includes(name)) fail('parameter_unknown', `Unknown query parameter ${name}.`);
    if (read[name] !== undefined) fail('filter_invalid', `${name} is given more than once.`);
    read[name] = value;
  }
  return read;
};

const readLimit = (value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  if (!/^[0-9]{1,4}$/.test(value)) fail('limit_invalid', '`limit` must be an integer from 1 to 100.');
  return Number(value);
};

/** A version or page number in a path or query: anything else is no such thing here (404). */
const numberOf = (value: string): number =>
  /^[1-9][0-9]{0,5}$/.test(value) ? Number(value) : fail('not_found', 'No such version or page here.');

/**
 * A blob streamed as the answer (read in the store's chunks, never whole in memory); the first chunk is
 * read before answering, so a blob that cannot be read is an error answer, not a cut-off 200.
 */
const blobResponse = async (
  ports: BackOfficeEnvironmentPorts,
  key: string,
  headers: Record<string, string>,
): Promise<Response> => {
  const chunks = readBlob(ports.blobs, key);
  let next = await chunks.next();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (next.done) return controller.close();
      controller.enqueue(next.value);
      next = await chunks.next();
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
  return new Response(body, { status: 200, headers: { ...headers, 'Cache-Control': 'no-store' } });
};

const readString = (
  body: Readonly<Record<string, unknown>>,
  name: string,
  required: boolean,
): string | undefined => {
  const value = body[name];
  if (value === undefined || value === null) {
    if (required) fail('request_invalid', `\`${name}\` is required.`);
    return undefined;
  }
  if (typeof value !== 'string') fail('request_invalid', `\`${name}\` must be a string.`);
  return value;
};

const readFields = (body: Readonly<Record<string, unknown>>, allowed: readonly string[]): void => {
  const unknown = Object.keys(body).filter((name) => !allowed.includes(name));
  if (unknown.length > 0) fail('request_invalid', `Unknown field ${unknown[0]}.`);
};

export const backOfficeRoutes = (core: BackOfficeCore): Hono<BackOfficeEnv> => {
  const routes = new Hono<BackOfficeEnv>();
  const environmentOf = (name: string): BackOfficeEnvironmentPorts => {
    if (!(ENVIRONMENTS as readonly string[]).includes(name))
      fail('not_found', 'No back-office route answers this path: the environment is sandbox or production.');
    return core.environments[name as Environment];
  };
  const idOf = (value: string): string => (ID.test(value) ? value : fail('not_found', 'No such id here.'));

  /** An action on a contract review the core refused: `not_found` when there is no such review here. */
  const refusedOrMissing = async <T>(
    ports: BackOfficeEnvironmentPorts,
    id: string,
    run: () => Promise<T>,
  ) => {
    try {
      return await run();
    } catch (error) {
      if (
        error instanceof ActionRefused &&
        !(isContractReviewId(id) && (await ports.contractReviews.get(id)))
      )
        throw notFound('contract review');
      throw error;
    }
  };

  routes.get('/:environment/reviews', async (c) => {
    const ports = environmentOf(c.req.param('environment'));
    const query = readQuery(c.req.url, ['limit', 'starting_after']);
    const page = await listReviewQueue(ports, c.get('actor'), {
      limit: readLimit(query.limit),
      startingAfter: query.starting_after,
    });
    return json(c.get('requestId'), page);
  });

  // Before `/reviews/:id` (no review's id is `summary`): how many are due and the newest, polled with the list.
  routes.get('/:environment/reviews/summary', async (c) => {
    const ports = environmentOf(c.req.param('environment'));
    readQuery(c.req.url, []);
    return json(c.get('requestId'), await reviewQueueSummary(ports, c.get('actor')));
  });

  routes.get('/:environment/reviews/:id', async (c) => {
    const ports = environmentOf(c.req.param('environment'));
    const id = idOf(c.req.param('id'));
    const draft = await getReviewDraft(ports, c.get('actor'), id);
    const review = await ports.contractReviews.get(id);
    if (review === null) throw notFound('contract review');
    return json(c.get('requestId'), { contract_review: presentContractReview(review), draft });
  });

  // The contract of a review at a version (the current one unless `?version=`): its pages' text and sizes,
  // and the analysis; its page images and PDF are served below, from the blob store, to staff only.
  routes.get('/:environment/reviews/:id/contract', async (c) => {
    const ports = environmentOf(c.req.param('environment'));
    const query = readQuery(c.req.url, ['version']);
    const version = query.version === undefined ? undefined : numberOf(query.version);
    return json(
      c.get('requestId'),
      await readReviewContract(ports, c.get('actor'), idOf(c.req.param('id')), version),
    );
  });

  // What changed in the contract's text from version `?since=` to the current one, page by page.
  routes.get('/:environment/reviews/:id/changes', async (c) => {
    const ports = environmentOf(c.req.param('environment'));
    const query = readQuery(c.req.url, ['since']);
    if (query.since === undefined)
      fail('request_invalid', '`since` is required: the version to compare from.');
    return json(
      c.get('requestId'),
      await readContractChanges(ports, c.get('actor'), idOf(c.req.param('id')), numberOf(query.since)),
    );
  });

  routes.get('/:environment/reviews/:id/versions/:version/pages/:number', async (c) => {
    const ports = environmentOf(c.req.param('environment'));
    const { key, contentType } = await reviewPageImage(
      ports,
      c.get('actor'),
      idOf(c.req.param('id')),
      numberOf(c.req.param('version')),
      numberOf(c.req.param('number')),
    );
    return blobResponse(ports, key, { 'Content-Type': contentType });
  });

  routes.get('/:environment/reviews/:id/versions/:version/pdf', async (c) => {
    const ports = environmentOf(c.req.param('environment'));
    const { key, fileName } = await reviewPdf(
      ports,
      c.get('actor'),
      idOf(c.req.param('id')),
      numberOf(c.req.param('version')),
    );
    // A download: the browser's PDF viewer would run under the API's `default-src 'none'`.
    return blobResponse(ports, key, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${fileName}"`,
    });
  });

  routes.post('/:environment/reviews/:id/assign', async (c) => {
    const ports = environmentOf(c.req.param('environment'));
    readFields(c.get('body'), []);
    return json(c.get('requestId'), await assignReview(ports, c.get('actor'), idOf(c.req.param('id'))));
  });

  routes.put('/:environment/reviews/:id/draft', async (c) => {
    const ports = environmentOf(c.req.param('environment'));
    const body = c.get('body');
    readFields(body, ['text', 'based_on_revision']);
    const text = readString(body, 'text', true) as string;
    const basedOn = body.based_on_revision;
    if (typeof basedOn !== 'number')
      fail(
        'request_invalid',
        '`based_on_revision` is required: the draft revision the page read (0 for none).',
      );
    return json(
      c.get('requestId'),
      await saveReviewDraft(ports, c.get('actor'), idOf(c.req.param('id')), text, basedOn),
    );
  });

  // Publishes `text` when given, otherwise the saved draft (or, with none saved, the analysis as drafted).
  routes.post('/:environment/reviews/:id/publish', async (c) => {
    const ports = environmentOf(c.req.param('environment'));
    const body = c.get('body');
    readFields(body, ['text']);
    const id = idOf(c.req.param('id'));
    const actor = c.get('actor');
    const given = readString(body, 'text', false);
    const published = await refusedOrMissing(ports, id, async () => {
      const text = given ?? (await getReviewDraft(ports, actor, id)).text;
      return publishLawyerReview(ports, actor, id, text);
    });
    return json(c.get('requestId'), presentContractReview(published));
  });

  routes.get('/:environment/sign-ups', async (c) => {
    const ports = environmentOf(c.req.param('environment'));
    const query = readQuery(c.req.url, ['limit', 'starting_after']);
    const page = await listSignUps(ports, c.get('actor'), {
      limit: readLimit(query.limit),
      startingAfter: query.starting_after,
    });
    return json(c.get('requestId'), page);
  });

  routes.get('/:environment/sign-ups/:id', async (c) => {
    const ports = environmentOf(c.req.param('environment'));
    return json(c.get('requestId'), await getSignUp(ports, c.get('actor'), idOf(c.req.param('id'))));
  });

  routes.post('/:environment/sign-ups/:id/accept', async (c) => {
    const ports = environmentOf(c.req.param('environment'));
    readFields(c.get('body'), []);
    const id = idOf(c.req.param('id'));
    const actor = c.get('actor');
    // Read as the actor first: an unknown id is `not_found`, whoever asks.
    await getSignUp(ports, actor, id);
    const onboarding =
      (await ports.onboardings.get(id)) ?? fail('not_found', 'No sign-up with that id exists here.');
    await acceptOnboarding(ports, onboarding, actor);
    return json(c.get('requestId'), await getSignUp(ports, actor, id));
  });

  routes.get('/:environment/contracts', async (c) => {
    const ports = environmentOf(c.req.param('environment'));
    const query = readQuery(c.req.url, ['q']);
    return json(c.get('requestId'), await searchContractReviews(ports, c.get('actor'), query.q ?? ''));
  });

  routes.get('/:environment/contracts/:id', async (c) => {
    const ports = environmentOf(c.req.param('environment'));
    return json(c.get('requestId'), await getContractReview(ports, c.get('actor'), idOf(c.req.param('id'))));
  });

  routes.post('/:environment/contracts/:id/withdraw', async (c) => {
    const ports = environmentOf(c.req.param('environment'));
    const body = c.get('body');
    readFields(body, ['channel', 'reason']);
    const typed = readString(body, 'channel', true);
    const channel = CHANNELS.find((known) => known === typed);
    if (channel === undefined) fail('request_invalid', `\`channel\` must be one of ${CHANNELS.join(', ')}.`);
    const reason = readString(body, 'reason', false) ?? null;
    const id = idOf(c.req.param('id'));
    const withdrawn = await refusedOrMissing(ports, id, () =>
      withdrawChannel(ports, c.get('actor'), id, channel as Channel, reason),
    );
    return json(c.get('requestId'), presentContractReview(withdrawn));
  });

  // The sandbox budget is the organisation's across both environments, kept by the sandbox.
  routes.get('/:environment/organisations', async (c) => {
    environmentOf(c.req.param('environment'));
    const query = readQuery(c.req.url, ['limit', 'starting_after']);
    const page = await listOrganisations(core.directory, core.environments.sandbox, c.get('actor'), {
      limit: readLimit(query.limit),
      startingAfter: query.starting_after,
    });
    return json(c.get('requestId'), page);
  });

  routes.get('/:environment/organisations/:id', async (c) => {
    environmentOf(c.req.param('environment'));
    const { directory, environments } = core;
    return json(
      c.get('requestId'),
      await getOrganisationBudget(directory, environments.sandbox, c.get('actor'), idOf(c.req.param('id'))),
    );
  });

  routes.put('/:environment/organisations/:id/budget', async (c) => {
    environmentOf(c.req.param('environment'));
    const body = c.get('body');
    readFields(body, ['total']);
    const total = body.total;
    if (typeof total !== 'number') fail('request_invalid', '`total` is required: a whole number.');
    const id = idOf(c.req.param('id'));
    const actor = c.get('actor');
    const { directory, environments } = core;
    await getOrganisationBudget(directory, environments.sandbox, actor, id);
    await setSandboxBudget(environments.sandbox, actor, id, total);
    return json(c.get('requestId'), await getOrganisationBudget(directory, environments.sandbox, actor, id));
  });

  // The environment's changes and the staff changes, merged newest first.
  routes.get('/:environment/audit-log', async (c) => {
    const ports = environmentOf(c.req.param('environment'));
    const query = readQuery(c.req.url, ['staff', 'action', 'limit', 'starting_after']);
    const page = await listAuditLog([ports.backOffice.audit, core.directory.staff.audit], c.get('actor'), {
      staff: query.staff,
      action: query.action,
      limit: readLimit(query.limit),
      startingAfter: query.starting_after,
    });
    return json(c.get('requestId'), page);
  });

  routes.get('/staff', async (c) =>
    json(c.get('requestId'), await listStaff(core.directory, c.get('actor'))),
  );

  routes.put('/staff/:email', async (c) => {
    const body = c.get('body');
    readFields(body, ['roles', 'name']);
    const { roles, name } = body;
    if (!Array.isArray(roles) || !roles.every((role) => typeof role === 'string'))
      fail('request_invalid', '`roles` is required: a list of lawyer, operator, admin.');
    if (name !== undefined && typeof name !== 'string') fail('request_invalid', '`name` is text.');
    return json(
      c.get('requestId'),
      await putStaffMember(core.directory, c.get('actor'), c.req.param('email'), roles as string[], name),
    );
  });

  routes.delete('/staff/:email', async (c) =>
    json(c.get('requestId'), await removeStaffMember(core.directory, c.get('actor'), c.req.param('email'))),
  );

  return routes;
};
