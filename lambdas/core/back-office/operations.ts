// core -> the operators' side of the back office (decisions.md §11), the reads the pages need beside the
// changes `ops` already makes (accept-onboarding, withdraw, set-budget, each taking the actor): the
// production sign-ups waiting for acceptance, oldest first, with their clients; and the contract search
// by `crv_…` id or `external_reference`, across the environment's integrations. Both from indexes.
import { fail } from '../errors';
import { isContractReviewId } from '../ids';
import { startingAfterInvalid } from '../lists';
import type { ContractReview, ContractVersion, Onboarding, Organisation } from '../model';
import type { Answers } from '../onboarding-answers';
import { type Directory, presentOrganisation } from '../organisations';
import type { Ports } from '../ports';
import { presentContractReview } from '../present';
import { getSandboxBudget } from '../sandbox-budget';
import { formatTime, formatTimeOrNull } from '../time';
import { type Actor, requireRole } from './roles';

export const MAX_SIGN_UPS_LIMIT = 100;
export const MAX_ORGANISATIONS_LIMIT = 100;
/** More reviews than this with one external_reference are not shown at once: refine by id. */
export const MAX_SEARCH_RESULTS = 20;

type SignUpPorts = Pick<Ports, 'onboardings' | 'clients' | 'answerVault'>;

/** A contract review as the back office shows it: as the API does, with whose it is. */
const presentForOperator = (review: ContractReview) => ({
  ...presentContractReview(review),
  organisation_id: review.scope.organisationId,
  integration_id: review.scope.integrationId,
});

const readLimit = (limit: number, max: number): number => {
  if (!Number.isInteger(limit) || limit < 1 || limit > max)
    fail('limit_invalid', `\`limit\` must be an integer from 1 to ${max}.`);
  return limit;
};

/** A buyer's residential address as the form took it, or null where the submission kept no answers. */
type SubmittedAddress = Answers['buyers'][number]['address'];

/** Each buyer's address in the submission's answers (opened from the vault), by email as clients keep it. */
const addressesOf = async (
  ports: Pick<Ports, 'onboardings' | 'answerVault'>,
  onboarding: Onboarding,
): Promise<Map<string, SubmittedAddress>> => {
  const sealed = await ports.onboardings.submittedAnswers(onboarding.id);
  if (sealed === null) return new Map();
  const answers = JSON.parse(await ports.answerVault.open(sealed, onboarding.id)) as Answers;
  return new Map(answers.buyers.map((buyer) => [buyer.email.trim().toLowerCase(), buyer.address]));
};

const presentAddress = (address: SubmittedAddress | undefined) =>
  address === undefined
    ? null
    : {
        line1: address.line1,
        line2: address.line2 ?? null,
        suburb: address.suburb,
        state: address.state,
        postcode: address.postcode,
        country: address.country,
      };

/** A sign-up as the back office shows it: its clients with their names, emails, phones and addresses. */
const presentSignUp = async (ports: SignUpPorts, onboarding: Onboarding) => {
  const [clients, addresses] = await Promise.all([
    ports.clients.listByOnboarding(onboarding.id),
    addressesOf(ports, onboarding),
  ]);
  return {
    id: onboarding.id,
    organisation_id: onboarding.scope.organisationId,
    integration_id: onboarding.scope.integrationId,
    reference: onboarding.reference,
    state: onboarding.state,
    submitted_at: formatTimeOrNull(onboarding.submittedAt),
    // In the submission's order: the primary buyer first.
    clients: onboarding.clientIds
      .flatMap((id) => clients.filter((client) => client.id === id))
      .map((client) => ({
        id: client.id,
        first_name: client.firstName,
        last_name: client.lastName,
        email: client.email,
        mobile: client.mobile,
        address: presentAddress(addresses.get(client.email.trim().toLowerCase())),
        primary: client.primary,
        created_at: formatTime(client.createdAt),
      })),
  };
};

/**
 * One page of the sign-ups waiting in this environment (`submitted`, not accepted), oldest submission
 * first: `{ data, has_more }`. Accepting one is `acceptOnboarding(ports, onboarding, actor)`.
 */
export const listSignUps = async (
  ports: SignUpPorts,
  actor: Actor,
  options: { limit?: number; startingAfter?: string } = {},
) => {
  requireRole(actor, 'signup.read');
  const limit = readLimit(options.limit ?? 50, MAX_SIGN_UPS_LIMIT);
  let after: Onboarding | undefined;
  if (options.startingAfter !== undefined) {
    const onboarding = await ports.onboardings.get(options.startingAfter);
    if (onboarding?.state !== 'submitted') startingAfterInvalid();
    after = onboarding ?? undefined;
  }
  const page = await ports.onboardings.submitted({ limit, after });
  return {
    data: await Promise.all(page.items.map((onboarding) => presentSignUp(ports, onboarding))),
    has_more: page.hasMore,
  };
};

/** One sign-up with its clients, for its page; `not_found` for an unknown id. */
export const getSignUp = async (ports: SignUpPorts, actor: Actor, id: string) => {
  requireRole(actor, 'signup.read');
  const onboarding = await ports.onboardings.get(id);
  if (onboarding === null) fail('not_found', 'No sign-up with that id exists here.');
  return presentSignUp(ports, onboarding);
};

/**
 * The contract search: `q` a `crv_…` id or an `external_reference` (of any integration in this
 * environment), `{ data }` newest first, each as the API shows it (versions, parts, publications).
 */
export const searchContractReviews = async (
  ports: Pick<Ports, 'contractReviews' | 'backOffice'>,
  actor: Actor,
  q: string,
) => {
  requireRole(actor, 'contract.read');
  const query = q.trim();
  if (query === '' || query.length > 200)
    fail('filter_invalid', 'Search by a crv_… id or an external_reference of 1 to 200 characters.');
  const ids = isContractReviewId(query)
    ? [query]
    : await ports.backOffice.search.byExternalReference(query, MAX_SEARCH_RESULTS);
  const reviews = await Promise.all(ids.map((id) => ports.contractReviews.get(id)));
  return {
    data: reviews.filter((review): review is ContractReview => review !== null).map(presentForOperator),
  };
};

/**
 * A contract review's page: as the search shows it, with every version's PDF (newest first);
 * `not_found` for an id that is no contract review of this environment.
 */
export const getContractReview = async (ports: Pick<Ports, 'contractReviews'>, actor: Actor, id: string) => {
  requireRole(actor, 'contract.read');
  const review = isContractReviewId(id) ? await ports.contractReviews.get(id) : null;
  if (review === null) fail('not_found', 'No contract review with that id exists here.');
  const numbers = Array.from({ length: review.version }, (_, index) => review.version - index);
  const versions = await Promise.all(numbers.map((n) => ports.contractReviews.getVersion(review.id, n)));
  return {
    ...presentForOperator(review),
    versions: versions
      .filter((version): version is ContractVersion => version !== null)
      .map((version) => ({
        version: version.version,
        page_count: version.pageCount,
        file_size: version.fileSize,
        file_sha256: version.fileSha256,
        created_at: formatTime(version.createdAt),
      })),
  };
};

/**
 * One page of every organisation, by name, each with its sandbox budget (used of total): the
 * Organisations page. `{ data, has_more }`, read from an index.
 */
export const listOrganisations = async (
  directory: Pick<Directory, 'organisations'>,
  sandbox: Pick<Ports, 'sandboxBudgets'>,
  actor: Actor,
  options: { limit?: number; startingAfter?: string } = {},
) => {
  requireRole(actor, 'organisation.read');
  const limit = readLimit(options.limit ?? 50, MAX_ORGANISATIONS_LIMIT);
  let after: Organisation | undefined;
  if (options.startingAfter !== undefined)
    after = (await directory.organisations.get(options.startingAfter)) ?? startingAfterInvalid();
  const page = await directory.organisations.list({ limit, after });
  return {
    data: await Promise.all(
      page.items.map(async (organisation) => ({
        ...presentOrganisation(organisation),
        sandbox_budget: await getSandboxBudget(sandbox, organisation.id),
      })),
    ),
    has_more: page.hasMore,
  };
};

/**
 * An organisation with its sandbox budget (kept by the sandbox, whatever environment asks), for the
 * Organisations page; `not_found` for an unknown id. Setting the total is `setSandboxBudget`.
 */
export const getOrganisationBudget = async (
  directory: Pick<Directory, 'organisations'>,
  sandbox: Pick<Ports, 'sandboxBudgets'>,
  actor: Actor,
  id: string,
) => {
  requireRole(actor, 'organisation.read');
  const organisation = await directory.organisations.get(id);
  if (organisation === null) fail('not_found', 'No organisation with that id exists.');
  return { ...presentOrganisation(organisation), sandbox_budget: await getSandboxBudget(sandbox, id) };
};
