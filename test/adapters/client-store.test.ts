import { DynamoDbClientStore } from '../../lambdas/adapters/dynamodb/client-store';
import { DynamoDbOnboardingStore } from '../../lambdas/adapters/dynamodb/onboarding-store';
import type { Client, Onboarding, Scope } from '../../lambdas/core/model';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { client, onboarding, scopeIn, TestClock } from '../support/fixtures';

const db = useTestDynamoDb();

const setUp = async () => {
  const tableName = await db.freshTable();
  const clock = new TestClock();
  const onboardings = new DynamoDbOnboardingStore(db.doc, tableName, clock);
  const store = new DynamoDbClientStore(db.doc, tableName, clock);
  const scope = scopeIn('sandbox');

  /** Opens an onboarding in `on` and submits `count` buyers, each created at its own instant. */
  const signUp = async (count: number, on: Scope = scope): Promise<{ onb: Onboarding; buyers: Client[] }> => {
    const onb = onboarding(on, clock.tick());
    await onboardings.open(onb, `token-${onb.id}`);
    const buyers = Array.from({ length: count }, (_, i) => client(onb, clock.tick(), { primary: i === 0 }));
    await onboardings.saveSubmission(
      { ...onb, state: 'submitted', clientIds: buyers.map((b) => b.id), submittedAt: clock.tick() },
      buyers,
      [],
    );
    return { onb, buyers };
  };

  /** Every page of a list, adding a sign-up between fetches. */
  const readAllWhileAdding = async (options: { onboardingId?: string }, add: () => Promise<void>) => {
    const seen: Client[] = [];
    let page = await store.list(scope, { limit: 2, ...options });
    seen.push(...page.items);
    while (page.hasMore) {
      await add();
      page = await store.list(scope, { limit: 2, ...options, startingAfter: seen[seen.length - 1] });
      seen.push(...page.items);
    }
    return seen;
  };

  return { clock, store, onboardings, scope, signUp, readAllWhileAdding };
};

const newestFirst = (clients: Client[]): string[] =>
  [...clients].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1)).map((c) => c.id);

describe('get', () => {
  it('answers a client by id, or null', async () => {
    const { store, signUp } = await setUp();
    const { buyers } = await signUp(1);

    await expect(store.get(buyers[0]?.id ?? '')).resolves.toEqual(buyers[0]);
    await expect(store.get('cli_unknown')).resolves.toBeNull();
  });
});

describe('listByOnboarding', () => {
  it('answers every client of one onboarding and none of another', async () => {
    const { store, signUp } = await setUp();
    const { onb, buyers } = await signUp(4);
    await signUp(2);

    const listed = await store.listByOnboarding(onb.id);

    expect(listed.map((c) => c.id)).toEqual(newestFirst(buyers));
  });
});

describe('list', () => {
  it('pages through an integration newest first without repeats or gaps while sign-ups arrive', async () => {
    const { signUp, readAllWhileAdding } = await setUp();
    const existing = [...(await signUp(3)).buyers, ...(await signUp(2)).buyers];

    const seen = await readAllWhileAdding({}, async () => {
      await signUp(1);
    });

    expect(seen.map((c) => c.id)).toEqual(newestFirst(existing));
  });

  it('filters by onboarding through its own index, paging the same way', async () => {
    const { signUp, readAllWhileAdding } = await setUp();
    const { onb, buyers } = await signUp(4);
    await signUp(3);

    const seen = await readAllWhileAdding({ onboardingId: onb.id }, async () => {
      await signUp(1);
    });

    expect(seen.map((c) => c.id)).toEqual(newestFirst(buyers));
  });

  it('orders clients created at one instant by id', async () => {
    const { store, onboardings, scope, clock } = await setUp();
    const onb = onboarding(scope, clock.tick());
    await onboardings.open(onb, 'token');
    const at = clock.tick();
    const buyers = ['cli_b', 'cli_c', 'cli_a'].map((id) => client(onb, at, { id }));
    await onboardings.saveSubmission(
      { ...onb, state: 'submitted', clientIds: ['cli_b', 'cli_c', 'cli_a'] },
      buyers,
      [],
    );

    const page = await store.list(scope, { limit: 10 });

    expect(page).toEqual({ items: [buyers[1], buyers[0], buyers[2]], hasMore: false });
  });

  it('answers an empty page for another integration, or its onboarding id', async () => {
    const { store, signUp, scope } = await setUp();
    const theirs = await signUp(2, scopeIn('sandbox', scope.organisationId));

    await expect(store.list(scope, { limit: 20 })).resolves.toEqual({ items: [], hasMore: false });
    await expect(store.list(scope, { limit: 20, onboardingId: theirs.onb.id })).resolves.toEqual({
      items: [],
      hasMore: false,
    });
  });
});
