// core -> onboardings: a customer's server opens a sign-up session; the form's submissions make
// clients, one per buyer; the service accepts the sign-up (interface.md, decisions.md §7).
import { hashSecret } from './auth';
import { fail, notFound } from './errors';
import { clientEvent } from './events';
import type { Client, Onboarding, Scope } from './model';
import { MAX_BUYERS } from './onboarding-answers';
import type { Ports } from './ports';
import { presentOnboarding, presentOnboardingSession } from './present';
import { sameScope } from './scope';
import { isPrintableText } from './text';

/** Reads the JSON body of `POST /v1/clients/onboardings/sessions`. */
export const readSessionRequest = (body: string): string => {
  let json: unknown;
  try {
    json = body.trim() === '' ? {} : JSON.parse(body);
  } catch {
    return fail(
      'request_invalid',
      'The body must be a JSON object: { "reference": "<your id for this sign-up>" }.',
    );
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return fail(
      'request_invalid',
      'The body must be a JSON object: { "reference": "<your id for this sign-up>" }.',
    );
  }
  const extra = Object.keys(json).find((field) => field !== 'reference');
  if (extra !== undefined)
    fail('request_invalid', `The field \`${extra}\` is not known; send only \`reference\`.`);
  const { reference } = json as { reference?: unknown };
  if (reference === undefined || reference === null)
    return fail('reference_required', 'Send `reference`, your own id for this sign-up.');
  if (typeof reference !== 'string' || !isPrintableText(reference, 200)) {
    return fail('reference_invalid', '`reference` must be a string of 1 to 200 printable characters.');
  }
  return reference;
};

/** Opens a sign-up session; a reference used before returns the same onboarding with another token. */
export const openOnboardingSession = async (ports: Ports, scope: Scope, reference: string) => {
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

export const getOwnOnboarding = async (ports: Ports, scope: Scope, id: string): Promise<Onboarding> => {
  const onboarding = await ports.onboardings.get(id);
  if (onboarding === null || !sameScope(onboarding.scope, scope)) throw notFound('onboarding');
  return onboarding;
};

/** The clients of the latest submission, primary first. */
const currentClients = async (ports: Ports, onboarding: Onboarding): Promise<Client[]> => {
  const all = new Map(
    (await ports.clients.listByOnboarding(onboarding.id)).map((client) => [client.id, client]),
  );
  return onboarding.clientIds.flatMap((id) => all.get(id) ?? []);
};

export const showOnboarding = async (ports: Ports, onboarding: Onboarding) =>
  presentOnboarding(onboarding, await currentClients(ports, onboarding));

/** One buyer as the form names them. */
export interface Buyer {
  firstName: string;
  lastName: string;
  email: string;
  mobile: string | null;
}

export { MAX_BUYERS };

const emailKey = (email: string): string => email.trim().toLowerCase();

/**
 * Records a submission of the form: one client per buyer (the same email on the same onboarding keeps its
 * `cli_…` id), the first buyer primary, `submitted_at` advanced. `sealedAnswers`, the form's whole answers
 * sealed by the answer vault, are kept in the same write, so a recorded submission always has them.
 */
export const submitOnboarding = async (
  ports: Ports,
  onboarding: Onboarding,
  buyers: Buyer[],
  sealedAnswers?: string,
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
  await ports.onboardings.saveSubmission(submitted, clients, events, sealedAnswers);
  return submitted;
};

/** The service accepts a submitted sign-up: `accepted_at`, and one `clients.accepted` per buyer. */
export const acceptOnboarding = async (ports: Ports, onboarding: Onboarding): Promise<Onboarding> => {
  if (onboarding.state === 'open')
    fail(
      'request_invalid',
      `${onboarding.id} has not been submitted yet; only a submitted sign-up can be accepted.`,
    );
  const now = ports.clock.now();
  const accepted: Onboarding = { ...onboarding, state: 'accepted', acceptedAt: now };
  const events = (await currentClients(ports, onboarding)).map((client) =>
    clientEvent(ports.ids, 'clients.accepted', client, now),
  );
  await ports.onboardings.saveAcceptance(accepted, events);
  return accepted;
};
