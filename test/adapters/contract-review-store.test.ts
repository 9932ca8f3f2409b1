import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDbContractReviewStore } from '../../lambdas/adapters/dynamodb/contract-review-store';
import { DynamoDbIdempotencyStore } from '../../lambdas/adapters/dynamodb/idempotency-store';
import { DynamoDbSandboxBudgetStore } from '../../lambdas/adapters/dynamodb/sandbox-budget-store';
import { ServiceError } from '../../lambdas/core/errors';
import type { ContractReview, Environment, Scope } from '../../lambdas/core/model';
import type { NewContractReview } from '../../lambdas/core/ports';
import { DEFAULT_SANDBOX_BUDGET } from '../../lambdas/core/sandbox-budget';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { completion, contractReview, contractVersion, id, scopeIn, TestClock } from '../support/fixtures';

const db = useTestDynamoDb();

/** A fresh table with an organisation's budget of `budget` (none set: the default) and the stores of `environment`. */
const setUp = async (environment: Environment, budget?: number) => {
  const tableName = await db.freshTable();
  const clock = new TestClock();
  const budgets = new DynamoDbSandboxBudgetStore(db.doc, tableName);
  const idempotency = new DynamoDbIdempotencyStore(db.doc, tableName, clock);
  const store = new DynamoDbContractReviewStore(db.doc, tableName, clock, environment);
  const org = { id: id('org_') };
  if (budget !== undefined) await budgets.set(org.id, budget);
  const scope = scopeIn(environment, org.id);

  /** Claims an idempotency key and builds a first send ready to write. */
  const firstSend = async (
    overrides: Partial<ContractReview> = {},
    on: Scope = scope,
  ): Promise<NewContractReview> => {
    const review = contractReview(on, clock.tick(), overrides);
    const key = id('idem-');
    await idempotency.claim(on, key, `fp-${key}`);
    return {
      review,
      version: contractVersion(review, 1, review.createdAt),
      idempotency: completion(on, key, `fp-${key}`),
    };
  };

  /** Builds version `basedOn + 1` of `review`, with its idempotency key claimed. */
  const nextVersion = async (review: ContractReview, basedOn: number) => {
    const now = clock.tick();
    const key = id('idem-');
    await idempotency.claim(review.scope, key, `fp-${key}`);
    return {
      review: { ...review, version: basedOn + 1, updatedAt: now },
      version: contractVersion(review, basedOn + 1, now),
      basedOnVersion: basedOn,
      idempotency: completion(review.scope, key, `fp-${key}`),
    };
  };

  const item = async (pk: string, sk: string) =>
    (await db.doc.send(new GetCommand({ TableName: tableName, Key: { pk, sk } }))).Item;

  return { tableName, clock, budgets, idempotency, store, org, scope, firstSend, nextVersion, item };
};

const rejection = async (promise: Promise<unknown>): Promise<ServiceError> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ServiceError) return error;
    throw error;
  }
  throw new Error('expected a ServiceError');
};

describe('create', () => {
  it('writes the review, its first version, its run and the idempotent answer together', async () => {
    const { store, idempotency, scope, firstSend, item } = await setUp('production');
    const entry = await firstSend({
      clients: ['cli_1', 'cli_2'],
      product: 'legal_advice',
      review: null,
      recipient: { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' },
      publications: [
        { channel: 'review_snapshot', state: 'pending', slug: 'abc', url: null, publishedAt: null },
      ],
    });

    await store.create(entry);

    await expect(store.get(entry.review.id)).resolves.toEqual(entry.review);
    await expect(store.getVersion(entry.review.id, 1)).resolves.toEqual(entry.version);
    await expect(store.getVersion(entry.review.id, 2)).resolves.toBeNull();
    await expect(store.findByExternalReference(scope, entry.review.externalReference)).resolves.toEqual(
      entry.review,
    );
    await expect(
      idempotency.claim(scope, entry.idempotency.key, entry.idempotency.fingerprint),
    ).resolves.toEqual({ kind: 'replay', answer: entry.idempotency.answer });
    expect(await item(`RUN#${entry.review.id}#1`, 'RUN#contract')).toMatchObject({
      state: 'pending',
      contract_review_id: entry.review.id,
      version: 1,
    });
  });

  it('keeps nulls and the contract viewer shape as given', async () => {
    const { store, firstSend } = await setUp('production');
    const entry = await firstSend({
      product: 'contract_viewer',
      review: null,
      analysis: null,
      lawyerReview: null,
    });

    await store.create(entry);

    await expect(store.get(entry.review.id)).resolves.toEqual(entry.review);
  });

  it('answers null for an unknown id or external reference', async () => {
    const { store, scope } = await setUp('production');

    await expect(store.get('crv_unknown')).resolves.toBeNull();
    await expect(store.findByExternalReference(scope, 'nothing')).resolves.toBeNull();
  });

  it('refuses a taken external reference and writes nothing of the second send', async () => {
    const { store, firstSend, idempotency, scope, item } = await setUp('production');
    const first = await firstSend({ externalReference: 'deal-42' });
    await store.create(first);
    const second = await firstSend({ externalReference: 'deal-42' });

    const error = await rejection(store.create(second));

    expect(error.code).toBe('external_reference_exists');
    expect(error.message).toMatch(/new version/);
    await expect(store.get(second.review.id)).resolves.toBeNull();
    expect(await item(`RUN#${second.review.id}#1`, 'RUN#contract')).toBeUndefined();
    // The claim is still open: the caller completes it with the error answer.
    await expect(
      idempotency.claim(scope, second.idempotency.key, second.idempotency.fingerprint),
    ).resolves.toEqual({ kind: 'in_use' });
  });

  it('scopes external references by integration', async () => {
    const { store, firstSend, org } = await setUp('production');
    const other = scopeIn('production', org.id);
    await store.create(await firstSend({ externalReference: 'deal-7' }));

    const entry = await firstSend({ externalReference: 'deal-7' }, other);
    await store.create(entry);

    await expect(store.findByExternalReference(other, 'deal-7')).resolves.toEqual(entry.review);
  });

  it('refuses a write whose idempotency claim is no longer in progress', async () => {
    const { store, firstSend, idempotency, scope } = await setUp('production');
    const entry = await firstSend();
    await idempotency.release(scope, entry.idempotency.key, entry.idempotency.fingerprint);

    const error = await rejection(store.create(entry));

    expect(error.code).toBe('idempotency_key_in_use');
    await expect(store.get(entry.review.id)).resolves.toBeNull();
  });

  it('refuses a record of another environment', async () => {
    const { store, firstSend, org } = await setUp('production');
    const entry = await firstSend({}, scopeIn('sandbox', org.id));

    await expect(store.create(entry)).rejects.toThrow(/sandbox record/);
  });
});

describe('sandbox budget', () => {
  it('gives an organisation with no budget record the default, counted from its first PDF', async () => {
    const { store, firstSend, budgets, org } = await setUp('sandbox');
    await expect(budgets.get(org.id)).resolves.toEqual({
      organisationId: org.id,
      total: DEFAULT_SANDBOX_BUDGET,
      used: 0,
    });

    const results = await Promise.allSettled(
      Array.from({ length: DEFAULT_SANDBOX_BUDGET + 2 }, async () => store.create(await firstSend())),
    );

    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(DEFAULT_SANDBOX_BUDGET);
    await expect(budgets.get(org.id)).resolves.toEqual({
      organisationId: org.id,
      total: DEFAULT_SANDBOX_BUDGET,
      used: DEFAULT_SANDBOX_BUDGET,
    });
  });

  it('lets exactly the budget through when uploads race for it', async () => {
    const { store, firstSend, budgets, org } = await setUp('sandbox', 3);
    const entries = await Promise.all(Array.from({ length: 10 }, () => firstSend()));

    const results = await Promise.allSettled(entries.map((entry) => store.create(entry)));

    const refused = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(refused).toHaveLength(7);
    for (const reason of refused) {
      expect(reason).toBeInstanceOf(ServiceError);
      expect((reason as ServiceError).code).toBe('budget_used');
    }
    expect((refused[0] as ServiceError).message).toBe(
      'The sandbox budget of 3 processed PDFs is used; contact the service operator to raise it.',
    );
    await expect(budgets.get(org.id)).resolves.toEqual({ organisationId: org.id, total: 3, used: 3 });
  });

  it('counts new versions too, and a raised budget lets uploads through again', async () => {
    const { store, firstSend, nextVersion, budgets, org } = await setUp('sandbox', 2);
    const entry = await firstSend();
    await store.create(entry);
    await store.addVersion(await nextVersion(entry.review, 1));

    const refused = await rejection(store.addVersion(await nextVersion({ ...entry.review, version: 2 }, 2)));
    expect(refused.code).toBe('budget_used');
    await expect(store.get(entry.review.id)).resolves.toMatchObject({ version: 2 });

    await budgets.set(org.id, 3);
    await store.addVersion(await nextVersion({ ...entry.review, version: 2 }, 2));
    await expect(store.get(entry.review.id)).resolves.toMatchObject({ version: 3 });
    await expect(budgets.get(org.id)).resolves.toEqual({ organisationId: org.id, total: 3, used: 3 });
  });

  it('prefers external_reference_exists to budget_used', async () => {
    const { store, firstSend } = await setUp('sandbox', 1);
    await store.create(await firstSend({ externalReference: 'deal-1' }));

    const error = await rejection(store.create(await firstSend({ externalReference: 'deal-1' })));

    expect(error.code).toBe('external_reference_exists');
  });

  it('is never touched in production', async () => {
    const { store, firstSend, budgets, org } = await setUp('production', 0);

    await Promise.all(Array.from({ length: 4 }, async () => store.create(await firstSend())));

    await expect(budgets.get(org.id)).resolves.toEqual({ organisationId: org.id, total: 0, used: 0 });
  });
});

describe('addVersion', () => {
  it('writes the new version, its run and the updated review', async () => {
    const { store, firstSend, nextVersion, idempotency, item } = await setUp('production');
    const entry = await firstSend();
    await store.create(entry);
    const next = await nextVersion(entry.review, 1);

    await store.addVersion(next);

    await expect(store.get(entry.review.id)).resolves.toEqual(next.review);
    await expect(store.getVersion(entry.review.id, 1)).resolves.toEqual(entry.version);
    await expect(store.getVersion(entry.review.id, 2)).resolves.toEqual(next.version);
    expect(await item(`RUN#${entry.review.id}#2`, 'RUN#contract')).toMatchObject({
      state: 'pending',
      version: 2,
    });
    await expect(
      idempotency.claim(next.review.scope, next.idempotency.key, next.idempotency.fingerprint),
    ).resolves.toEqual({ kind: 'replay', answer: next.idempotency.answer });
  });

  it('refuses a version based on one that is no longer the latest, naming the latest', async () => {
    const { store, firstSend, nextVersion } = await setUp('production');
    const entry = await firstSend();
    await store.create(entry);
    await store.addVersion(await nextVersion(entry.review, 1));
    const late = await nextVersion(entry.review, 1);

    const error = await rejection(store.addVersion(late));

    expect(error.code).toBe('stale_version');
    expect(error.message).toMatch(/Version 2 is the latest/);
    await expect(store.getVersion(entry.review.id, 2)).resolves.not.toEqual(late.version);
  });

  it('lets one of two racing versions on the same base win', async () => {
    const { store, firstSend, nextVersion } = await setUp('production');
    const entry = await firstSend();
    await store.create(entry);
    const racers = await Promise.all([nextVersion(entry.review, 1), nextVersion(entry.review, 1)]);

    const results = await Promise.allSettled(racers.map((r) => store.addVersion(r)));

    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const loser = results.find((r) => r.status === 'rejected');
    expect((loser as PromiseRejectedResult).reason).toMatchObject({ code: 'stale_version' });
  });

  it('answers not_found for an unknown contract review', async () => {
    const { store, firstSend, nextVersion } = await setUp('production');
    const entry = await firstSend();

    const error = await rejection(store.addVersion(await nextVersion(entry.review, 1)));

    expect(error.code).toBe('not_found');
  });
});

describe('list', () => {
  it('pages newest first, ties broken by id, never repeating or skipping while items are added', async () => {
    const { store, firstSend, scope, clock } = await setUp('production');
    const created: ContractReview[] = [];
    for (let i = 0; i < 5; i++) {
      const entry = await firstSend();
      await store.create(entry);
      created.push(entry.review);
    }
    // Two at the same instant: the id decides their order.
    const sameTime = clock.tick();
    for (const overrides of [{ id: 'crv_tie_a' }, { id: 'crv_tie_b' }]) {
      const entry = await firstSend({ ...overrides, createdAt: sameTime, updatedAt: sameTime });
      await store.create(entry);
      created.push(entry.review);
    }

    const seen: ContractReview[] = [];
    let page = await store.list(scope, { limit: 3 });
    seen.push(...page.items);
    while (page.hasMore) {
      // New contracts arrive between fetches; they are newer and belong before the first page.
      await store.create(await firstSend());
      page = await store.list(scope, { limit: 3, startingAfter: seen[seen.length - 1] });
      seen.push(...page.items);
    }

    const expected = [...created].sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
    expect(seen.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    expect(seen.slice(0, 2).map((r) => r.id)).toEqual(['crv_tie_b', 'crv_tie_a']);
  });

  it('answers has_more false on an exact last page and empty for another integration', async () => {
    const { store, firstSend, scope, org } = await setUp('production');
    for (let i = 0; i < 2; i++) await store.create(await firstSend());

    await expect(store.list(scope, { limit: 2 })).resolves.toMatchObject({ hasMore: false });
    await expect(store.list(scope, { limit: 1 })).resolves.toMatchObject({ hasMore: true });
    await expect(store.list(scopeIn('production', org.id), { limit: 20 })).resolves.toEqual({
      items: [],
      hasMore: false,
    });
  });
});
