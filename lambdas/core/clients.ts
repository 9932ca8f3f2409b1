// core -> clients: one buyer who signed up through the onboarding form (`cli_…`).
import { notFound } from './errors';
import { isClientId } from './ids';
import { CLIENT_LIST_FILTERS } from './interface-schemas';
import { type QueryPairs, readListQuery, startingAfterInvalid } from './lists';
import type { Client, Scope } from './model';
import type { Ports } from './ports';
import { presentClient, presentList } from './present';
import { sameScope } from './scope';

export const getOwnClient = async (
  ports: Pick<Ports, 'clients'>,
  scope: Scope,
  id: string,
): Promise<Client> => {
  if (!isClientId(id)) throw notFound('client');
  const client = await ports.clients.get(id);
  if (client === null || !sameScope(client.scope, scope)) throw notFound('client');
  return client;
};

/** `GET /v1/clients`: newest first; `onboarding_id` or `reference` selects one sign-up's clients. */
export const listClients = async (
  ports: Pick<Ports, 'clients' | 'onboardings'>,
  scope: Scope,
  query: QueryPairs,
) => {
  const { limit, startingAfter, filters } = readListQuery(query, CLIENT_LIST_FILTERS);
  let onboardingId = filters.onboarding_id;
  if (filters.reference !== undefined) {
    const onboarding = await ports.onboardings.findByReference(scope, filters.reference);
    if (onboarding === null || (onboardingId !== undefined && onboarding.id !== onboardingId)) {
      return presentList({ items: [], hasMore: false }, presentClient);
    }
    onboardingId = onboarding.id;
  }
  if (onboardingId !== undefined) {
    const onboarding = await ports.onboardings.get(onboardingId);
    if (onboarding === null || !sameScope(onboarding.scope, scope))
      return presentList({ items: [], hasMore: false }, presentClient);
  }
  let after: Client | undefined;
  if (startingAfter !== undefined) {
    if (!isClientId(startingAfter)) return startingAfterInvalid();
    const client = await ports.clients.get(startingAfter);
    if (
      client === null ||
      !sameScope(client.scope, scope) ||
      (onboardingId !== undefined && client.onboardingId !== onboardingId)
    ) {
      return startingAfterInvalid();
    }
    after = client;
  }
  const page = await ports.clients.list(scope, {
    limit,
    ...(onboardingId && { onboardingId }),
    ...(after && { startingAfter: after }),
  });
  return presentList(page, presentClient);
};
