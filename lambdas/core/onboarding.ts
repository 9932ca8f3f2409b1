// core -> onboardings: a customer's server opens a sign-up session; the form's submissions make
// clients, one per buyer; the service accepts the sign-up (interface.md, decisions.md §7).

import { hashSecret } from './auth';
import { auditEntry } from './back-office/audit';
import { type Actor, requireRole } from './back-office/roles';
import { ActionRefused, ConcurrentChange, fail, notFound } from './errors';
import { clientEvent } from './events';
import { isOnboardingId } from './ids';
import { SessionRequest } from './interface-schemas';
import { parseJson } from './json';
import type { Client, Onboarding, Scope } from './model';
import { type Buyer, MAX_BUYERS } from './onboarding-answers';

export type { Buyer } from './onboarding-answers';

import type { Ports, RunRequest, SubmittedAnswers, WorkflowRun } from './ports';
import { presentOnboarding, presentOnboardingSession } from './present';
import { sameScope } from './scope';
import { formatTimeOrNull } from './time';
import { type TimedStep, waitUntil } from './timed-step';

/** Reads the JSON body of `POST /v1/clients/onboardings/sessions`. */
export const readSessionRequest = (body: string): string => {
  const parsed = body.trim() === '' ? { ok: true as const, value: {} } : parseJson(body);
  if (!parsed.ok) {
    return fail(
      'request_invalid',
      `The body must be a JSON object: { "reference": "<your id for this sign-up>" }; ${parsed.problem}.`,
    );
  }
  const json = parsed.value;
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return fail(
      'request_invalid',
      'The body must be a JSON object: { "reference": "<your id for this sign-up>" }.',
    );
  }
  const extra = Object.keys(json).find((field) => !Object.hasOwn(SessionRequest.shape, field));
  if (extra !== undefined)
    fail('request_invalid', `The field \`${extra}\` is not known; send only \`reference\`.`);
  const { reference } = json as { reference?: unknown };
  if (reference === undefined || reference === null)
    return fail('reference_required', 'Send `reference`, your own id for this sign-up.');
  const valid = SessionRequest.shape.reference.safeParse(reference);
  if (!valid.success) {
    return fail('reference_invalid', '`reference` must be a string of 1 to 200 printable characters.');
  }
  return valid.data;
};

/** Opens a sign-up session; a reference used before returns the same onboarding with another token. */
export const openOnboardingSession = async (
  ports: Pick<Ports, 'clock' | 'ids' | 'onboardings'>,
  scope: Scope,
  reference: string,
) => {
  const sessionToken = ports.ids.secret('onbs_');
  const draft: Onboarding = {
    id: ports.ids.id('onb'),
    scope,
    reference,
    state: 'open',
    clientIds: [],
    createdAt: ports.clock.now(),
    submittedAt: null,
    acceptedAt: null,
  };
  const onboarding = await ports.onboardings.open(draft, hashSecret(sessionToken));
  return presentOnboardingSession(onboarding, sessionToken);
};

export const getOwnOnboarding = async (
  ports: Pick<Ports, 'onboardings'>,
  scope: Scope,
  id: string,
): Promise<Onboarding> => {
  if (!isOnboardingId(id)) throw notFound('onboarding');
  const onboarding = await ports.onboardings.get(id);
  if (onboarding === null || !sameScope(onboarding.scope, scope)) throw notFound('onboarding');
  return onboarding;
};

/** The clients of the latest submission, primary first. */
const currentClients = async (ports: Pick<Ports, 'clients'>, onboarding: Onboarding): Promise<Client[]> => {
  const all = new Map(
    (await ports.clients.listByOnboarding(onboarding.id)).map((client) => [client.id, client]),
  );
  return onboarding.clientIds.flatMap((id) => all.get(id) ?? []);
};

export const showOnboarding = async (ports: Pick<Ports, 'clients'>, onboarding: Onboarding) =>
  presentOnboarding(onboarding, await currentClients(ports, onboarding));

export { MAX_BUYERS };

const emailKey = (email: string): string => email.trim().toLowerCase();

/**
 * Records a submission of the form: one client per buyer (the same email on the same onboarding keeps its
 * `cli_…` id), the first buyer primary, `submitted_at` advanced. `answers`, the form's whole answers
 * sealed by the answer vault and the key of the browser that sent them (null: none), are kept in the same
 * write, so a recorded submission always has them.
 */
export const submitOnboarding = async (
  ports: Pick<Ports, 'clients' | 'clock' | 'environment' | 'ids' | 'onboardings' | 'workflows'>,
  onboarding: Onboarding,
  buyers: Buyer[],
  answers?: SubmittedAnswers,
): Promise<Onboarding> => {
  if (buyers.length < 1 || buyers.length > MAX_BUYERS)
    fail('request_invalid', `Name 1 to ${MAX_BUYERS} buyers.`);
  const keys = buyers.map((buyer) => emailKey(buyer.email));
  if (new Set(keys).size !== keys.length)
    fail('request_invalid', 'Each buyer needs their own email address.');
  const now = ports.clock.now();
  const existing = new Map(
    (await ports.clients.listByOnboarding(onboarding.id)).map((client) => [emailKey(client.email), client]),
  );
  const clients: Client[] = buyers.map((buyer, index) => {
    const before = existing.get(emailKey(buyer.email));
    return {
      id: before?.id ?? ports.ids.id('cli'),
      scope: onboarding.scope,
      onboardingId: onboarding.id,
      reference: onboarding.reference,
      primary: index === 0,
      firstName: buyer.firstName.trim(),
      lastName: buyer.lastName.trim(),
      email: buyer.email.trim(),
      mobile: buyer.mobile,
      createdAt: before?.createdAt ?? now,
    };
  });
  const submitted: Onboarding = {
    ...onboarding,
    state: 'submitted',
    clientIds: clients.map((c) => c.id),
    submittedAt: now,
  };
  const events = clients.map((client) => clientEvent(ports.ids, 'clients.submitted', client, now));
  // A sandbox sign-up is accepted automatically a minute after each submission (decisions.md §7).
  const runs: WorkflowRun[] =
    ports.environment === 'sandbox'
      ? [{ kind: 'acceptance', environment: 'sandbox', onboardingId: submitted.id, submittedAt: now }]
      : [];
  await ports.onboardings.saveSubmission(submitted, clients, events, { answers, runs });
  // Starting is a head start only: the run is recorded with the submission, and re-driven if need be.
  for (const run of runs) await ports.workflows.start(run).catch(() => undefined);
  return submitted;
};

/**
 * A submitted sign-up is accepted: `accepted_at`, and one `clients.accepted` per buyer. `actor` is the
 * staff member or the operator tool accepting it (checked, and audited in the same transaction), or null
 * for the sandbox's automatic acceptance.
 */
export const acceptOnboarding = async (
  ports: Pick<Ports, 'clients' | 'clock' | 'environment' | 'ids' | 'onboardings'>,
  onboarding: Onboarding,
  actor: Actor | null,
): Promise<Onboarding> => {
  if (actor !== null) requireRole(actor, 'signup.accept');
  if (onboarding.state === 'open')
    fail(
      'request_invalid',
      `${onboarding.id} has not been submitted yet; only a submitted sign-up can be accepted.`,
    );
  // Accepting again would move accepted_at and send clients.accepted a second time.
  if (onboarding.state === 'accepted')
    throw new ActionRefused(
      `${onboarding.id} was accepted already, at ${formatTimeOrNull(onboarding.acceptedAt)}; nothing changed.`,
    );
  const now = ports.clock.now();
  const accepted: Onboarding = { ...onboarding, state: 'accepted', acceptedAt: now };
  const events = (await currentClients(ports, onboarding)).map((client) =>
    clientEvent(ports.ids, 'clients.accepted', client, now),
  );
  const audit =
    actor === null
      ? []
      : [
          auditEntry(ports, actor, ports.environment, 'signup.accepted', onboarding.id, {
            clients: events.length,
          }),
        ];
  await ports.onboardings.saveAcceptance(accepted, events, audit);
  return accepted;
};

/** How long after a submission a sandbox sign-up is accepted automatically (decisions.md §7). */
export const SANDBOX_ACCEPTANCE_DELAY_MS = 60_000;

/** What the acceptance workflow does next: wait until `dueAt` and look again, or stop. */
export type AcceptanceStep = TimedStep;

/**
 * The acceptance workflow's step: once the submission it was started for is a minute old (divided by
 * `delayScale`), accepts the sign-up, unless it was submitted again since (that submission has its own
 * run) or accepted already (by the operator). Repeating it after it accepted changes nothing.
 */
export const acceptWhenDue = async (
  ports: Pick<Ports, 'clients' | 'clock' | 'environment' | 'ids' | 'onboardings' | 'runs'>,
  run: Extract<RunRequest, { kind: 'acceptance' }>,
  delayScale: number,
): Promise<AcceptanceStep> => {
  const onboarding = await ports.onboardings.get(run.onboardingId);
  if (onboarding === null || onboarding.submittedAt !== run.submittedAt || onboarding.state !== 'submitted') {
    await ports.runs.finish(run, onboarding?.submittedAt === run.submittedAt ? 'completed' : 'superseded');
    return { done: true };
  }
  const due = run.submittedAt + Math.round((SANDBOX_ACCEPTANCE_DELAY_MS * 1000) / delayScale);
  if (ports.clock.now() < due) return waitUntil(due);
  try {
    await acceptOnboarding(ports, onboarding, null);
  } catch (error) {
    // Submitted again meanwhile: that submission's own run accepts it a minute after it was made.
    if (!(error instanceof ConcurrentChange)) throw error;
    await ports.runs.finish(run, 'superseded');
    return { done: true };
  }
  await ports.runs.finish(run, 'completed');
  return { done: true };
};
