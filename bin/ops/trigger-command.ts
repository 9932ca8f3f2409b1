// bin/ops -> `trigger <event>`: makes a real event of that kind happen in an environment, the way an
// integrator's program and the operator would, so that a receiver (`ops listen`) can be built against real
// deliveries: a sample sign-up for the clients events, the sample contract (examples/sample-contract.pdf)
// sent through the API for the contract review events, then the operator's step the event needs
// (accepting, publishing the lawyer's review, withdrawing). It uses a key of its own, revoked at the end.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  type ContractRequest,
  ContractServiceClient,
  isServiceApiError,
} from '../../clients/typescript/src/index';
import { createApiKey, revokeApiKey } from '../../lambdas/core/api-keys';
import { OPERATOR_TOOL } from '../../lambdas/core/back-office/roles';
import { publishLawyerReview, withdrawChannel } from '../../lambdas/core/contracts/lawyer-actions';
import { ActionRefused } from '../../lambdas/core/errors';
import { EVENT_TYPES, type EventType } from '../../lambdas/core/events';
import type { Scope } from '../../lambdas/core/model';
import { acceptOnboarding, openOnboardingSession, submitOnboarding } from '../../lambdas/core/onboarding';
import { type Directory, keyHolder } from '../../lambdas/core/organisations';
import type { Ports } from '../../lambdas/core/ports';
import { type EnvironmentServices, readEnvironment, scopeOf } from './scope';

export const TRIGGER_USAGE = `  trigger <event> [--environment E] [--integration I]
                                        make a real event of that kind happen (default: sandbox), with a sample
                                        sign-up or the sample contract; prints what it made`;

const SAMPLE_PDF = new URL('../../examples/sample-contract.pdf', import.meta.url);

/** Events that only a PDF failing inside the pipeline makes: no sample can be sent to make one at will. */
const NOT_TRIGGERABLE: ReadonlySet<EventType> = new Set([
  'contract-reviews.processing.failed',
  'contract-reviews.analysis.failed',
]);

const POLL_MS = 250;
const WAIT_MS = 5 * 60_000;

/** Polls `read` until `done`; the pipeline takes seconds for the sample contract. */
const waitFor = async <T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > until)
      throw new ActionRefused(`${what} did not happen within 5 minutes; is the stack running?`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
};

/**
 * The sample contract sent through the API by the typed client, as an integrator's program sends it (the
 * token, the Idempotency-Key, the multipart body and its digest are the client's work).
 */
const sendSample = async (client: ContractServiceClient, request: ContractRequest) => {
  try {
    const { contractReview } = await client.contractReviews.create(request, {
      path: fileURLToPath(SAMPLE_PDF),
    });
    return contractReview.id;
  } catch (error) {
    if (isServiceApiError(error))
      throw new ActionRefused(`the sample contract was refused: ${error.code}: ${error.message}`);
    throw new ActionRefused(`the API at ${client.baseUrl} did not answer; is the stack running?`);
  }
};

const triggerSignUp = async (
  ports: Pick<Ports, 'clients' | 'clock' | 'environment' | 'ids' | 'onboardings' | 'workflows'>,
  scope: Scope,
  type: EventType,
) => {
  const session = await openOnboardingSession(ports, scope, `trigger-${randomUUID()}`);
  const opened = await ports.onboardings.get(session.id);
  if (opened === null) throw new Error(`the onboarding ${session.id} just opened is missing`);
  const submitted = await submitOnboarding(ports, opened, [
    { firstName: 'Sam', lastName: 'Sample', email: 'sam.sample@example.com', mobile: null },
  ]);
  if (type === 'clients.accepted') await acceptOnboarding(ports, submitted, OPERATOR_TOOL);
  return { event: type, onboarding_id: session.id };
};

const triggerContract = async (
  ports: Pick<Ports, 'blobs' | 'clock' | 'contractReviews' | 'environment' | 'ids' | 'workflows'>,
  client: ContractServiceClient,
  type: EventType,
) => {
  const viewerOnly =
    type === 'contract-reviews.publication.published' || type === 'contract-reviews.publication.withdrawn';
  const id = await sendSample(client, {
    external_reference: `trigger-${randomUUID()}`,
    ...(viewerOnly ? { product: 'contract_viewer' } : { product: 'legal_information', review: 'lawyer' }),
  });
  const read = async () => {
    const review = await ports.contractReviews.get(id);
    if (review === null) throw new Error(`the contract review ${id} just sent is missing`);
    return review;
  };
  if (viewerOnly) {
    await waitFor('its publication', read, (r) => r.publications.some((p) => p.state === 'published'));
    if (type === 'contract-reviews.publication.withdrawn')
      await withdrawChannel(ports, OPERATOR_TOOL, id, 'contract_viewer');
  } else {
    await waitFor('its lawyer review request', read, (r) => r.lawyerReview?.state === 'requested');
    if (type === 'contract-reviews.lawyer_review.completed')
      await publishLawyerReview(ports, OPERATOR_TOOL, id, undefined);
  }
  return { event: type, contract_review_id: id };
};

export const runTriggerCommand = async (
  argv: string[],
  services: Record<'sandbox' | 'production', EnvironmentServices>,
  directory: Directory,
) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { environment: { type: 'string', default: 'sandbox' }, integration: { type: 'string' } },
  });
  const [name, ...rest] = positionals;
  const type = EVENT_TYPES.find((e) => e === name);
  if (!type || rest.length > 0)
    throw new ActionRefused(
      `trigger one of ${EVENT_TYPES.filter((e) => !NOT_TRIGGERABLE.has(e)).join(', ')}`,
    );
  if (NOT_TRIGGERABLE.has(type))
    throw new ActionRefused(
      `${type} happens only when a PDF fails inside the pipeline; no sample makes it at will`,
    );
  const environment = readEnvironment(values.environment, services);
  const { ports, settings } = services[environment];
  const scope = await scopeOf(directory, environment, values.integration);
  if (type.startsWith('clients.')) return triggerSignUp(ports, scope, type);
  const key = await createApiKey(ports, await keyHolder(directory, scope), 'ops trigger');
  try {
    const client = new ContractServiceClient({ apiKey: key.key, baseUrl: settings.baseUrls[environment] });
    return await triggerContract(ports, client, type);
  } finally {
    await revokeApiKey(ports, scope.organisationId, key.id);
  }
};
