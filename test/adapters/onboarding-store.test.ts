import { DynamoDbClientStore } from '../../lambdas/adapters/dynamodb/client-store';
import { DynamoDbOnboardingStore } from '../../lambdas/adapters/dynamodb/onboarding-store';
import { ConcurrentChange } from '../../lambdas/core/errors';
import type { Onboarding } from '../../lambdas/core/model';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { client, onboarding, scopeIn, TestClock } from '../support/fixtures';

const db = useTestDynamoDb();

const setUp = async () => {
  const tableName = await db.freshTable();
  const clock = new TestClock();
  return {
    clock,
    store: new DynamoDbOnboardingStore(db.doc, tableName, clock),
    clients: new DynamoDbClientStore(db.doc, tableName, clock),
    scope: scopeIn('production'),
  };
};

describe('open', () => {
  it('opens an onboarding under its reference, reachable from its session token', async () => {
    const { store, scope, clock } = await setUp();
    const opened = onboarding(scope, clock.tick());

    await expect(store.open(opened, 'token-hash-1')).resolves.toEqual(opened);

    await expect(store.get(opened.id)).resolves.toEqual(opened);
    await expect(store.findByReference(scope, opened.reference)).resolves.toEqual(opened);
    await expect(store.findBySessionTokenHash('token-hash-1')).resolves.toEqual(opened);
  });

  it('answers the existing onboarding for a reference used before, and records the new token against it', async () => {
    const { store, scope, clock } = await setUp();
    const first = onboarding(scope, clock.tick(), { reference: 'buyer-9' });
    await store.open(first, 'token-hash-1');
    const again = onboarding(scope, clock.tick(), { reference: 'buyer-9' });

    await expect(store.open(again, 'token-hash-2')).resolves.toEqual(first);

    await expect(store.get(again.id)).resolves.toBeNull();
    await expect(store.findBySessionTokenHash('token-hash-1')).resolves.toEqual(first);
    await expect(store.findBySessionTokenHash('token-hash-2')).resolves.toEqual(first);
  });

  it('makes one onboarding of concurrent opens with one reference', async () => {
    const { store, scope, clock } = await setUp();
    const candidates = Array.from({ length: 5 }, () =>
      onboarding(scope, clock.tick(), { reference: 'buyer-1' }),
    );

    const opened = await Promise.all(candidates.map((o, i) => store.open(o, `token-${i}`)));

    const ids = new Set(opened.map((o) => o.id));
    expect(ids.size).toBe(1);
    for (let i = 0; i < 5; i++) {
      await expect(store.findBySessionTokenHash(`token-${i}`)).resolves.toMatchObject({ id: opened[0]?.id });
    }
  });

  it('keeps references apart per integration', async () => {
    const { store, scope, clock } = await setUp();
    const other = scopeIn('production', scope.organisationId);
    await store.open(onboarding(scope, clock.tick(), { reference: 'buyer-1' }), 'token-a');
    const theirs = onboarding(other, clock.tick(), { reference: 'buyer-1' });

    await expect(store.open(theirs, 'token-b')).resolves.toEqual(theirs);
    await expect(store.findByReference(other, 'buyer-1')).resolves.toEqual(theirs);
  });

  it('answers null for unknown ids, references and tokens', async () => {
    const { store, scope } = await setUp();

    await expect(store.get('onb_unknown')).resolves.toBeNull();
    await expect(store.findByReference(scope, 'unknown')).resolves.toBeNull();
    await expect(store.findBySessionTokenHash('unknown')).resolves.toBeNull();
  });
});

describe('saveSubmission and saveAcceptance', () => {
  it('replaces the onboarding and upserts its clients together', async () => {
    const { store, clients, scope, clock } = await setUp();
    const opened = onboarding(scope, clock.tick());
    await store.open(opened, 'token-1');
    const submittedAt = clock.tick();
    const primary = client(opened, submittedAt, { primary: true, mobile: '+44 7700 900123' });
    const second = client(opened, submittedAt);
    const submitted: Onboarding = {
      ...opened,
      state: 'submitted',
      clientIds: [primary.id, second.id],
      submittedAt,
    };

    await store.saveSubmission(submitted, [primary, second], []);

    await expect(store.get(opened.id)).resolves.toEqual(submitted);
    await expect(clients.get(primary.id)).resolves.toEqual(primary);
    await expect(clients.get(second.id)).resolves.toEqual(second);

    // A later submission renames the primary and leaves the second buyer out.
    const resubmittedAt = clock.tick();
    const renamed = { ...primary, firstName: 'Augusta' };
    const resubmitted: Onboarding = { ...submitted, clientIds: [primary.id], submittedAt: resubmittedAt };
    await store.saveSubmission(resubmitted, [renamed], []);

    await expect(store.get(opened.id)).resolves.toEqual(resubmitted);
    await expect(clients.get(primary.id)).resolves.toEqual(renamed);
    await expect(clients.get(second.id)).resolves.toEqual(second);
    await expect(clients.listByOnboarding(opened.id)).resolves.toHaveLength(2);
  });

  it('sets the acceptance only', async () => {
    const { store, scope, clock } = await setUp();
    const opened = onboarding(scope, clock.tick());
    await store.open(opened, 'token-1');
    const submitted: Onboarding = {
      ...opened,
      state: 'submitted',
      clientIds: ['cli_a'],
      submittedAt: clock.tick(),
    };
    await store.saveSubmission(submitted, [], []);
    const acceptedAt = clock.tick();

    // A copy of the same submission without the clients: they are kept.
    await store.saveAcceptance({ ...submitted, clientIds: [], state: 'accepted', acceptedAt }, []);

    await expect(store.get(opened.id)).resolves.toEqual({ ...submitted, state: 'accepted', acceptedAt });
  });

  it('refuses to accept a submission that was since made again (ConcurrentChange), and records nothing', async () => {
    const { store, scope, clock } = await setUp();
    const opened = onboarding(scope, clock.tick());
    await store.open(opened, 'token-1');
    const first: Onboarding = {
      ...opened,
      state: 'submitted',
      clientIds: ['cli_a'],
      submittedAt: clock.tick(),
    };
    await store.saveSubmission(first, [], []);
    const second: Onboarding = { ...first, submittedAt: clock.tick() };
    await store.saveSubmission(second, [], []);

    await expect(
      store.saveAcceptance({ ...first, state: 'accepted', acceptedAt: clock.tick() }, []),
    ).rejects.toBeInstanceOf(ConcurrentChange);
    await expect(store.get(opened.id)).resolves.toEqual(second);
  });

  it('of two acceptances of one submission, records one (the other: ConcurrentChange)', async () => {
    const { store, scope, clock } = await setUp();
    const opened = onboarding(scope, clock.tick());
    await store.open(opened, 'token-1');
    const submitted: Onboarding = {
      ...opened,
      state: 'submitted',
      clientIds: ['cli_a'],
      submittedAt: clock.tick(),
    };
    await store.saveSubmission(submitted, [], []);
    const first = { ...submitted, state: 'accepted' as const, acceptedAt: clock.tick() };
    const second = { ...submitted, state: 'accepted' as const, acceptedAt: clock.tick() };

    await store.saveAcceptance(first, []);
    await expect(store.saveAcceptance(second, [])).rejects.toBeInstanceOf(ConcurrentChange);
    await expect(store.get(opened.id)).resolves.toEqual(first);
  });

  it('answers not_found for an onboarding that was never opened', async () => {
    const { store, scope, clock } = await setUp();
    const never = onboarding(scope, clock.tick());

    await expect(store.saveSubmission({ ...never, state: 'submitted' }, [], [])).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(store.saveAcceptance({ ...never, state: 'accepted' }, [])).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(store.get(never.id)).resolves.toBeNull();
  });
});

describe('the sealed answers', () => {
  const none = { draft: null, submitted: null, submittedBy: null };

  it("keeps each browser's draft, replaced by its next, apart from other browsers and onboardings", async () => {
    const { store, scope, clock } = await setUp();
    const mine = onboarding(scope, clock.tick());
    const theirs = onboarding(scope, clock.tick());
    await store.open(mine, 'token-1');
    await store.open(theirs, 'token-2');

    await expect(store.getAnswers(mine.id, 'browser-a')).resolves.toEqual(none);
    await store.saveDraft(mine.id, 'browser-a', 'v1.first', clock.tick());
    await store.saveDraft(mine.id, 'browser-a', 'v1.second', clock.tick());
    await store.saveDraft(mine.id, 'browser-b', 'v1.other', clock.tick());

    await expect(store.getAnswers(mine.id, 'browser-a')).resolves.toEqual({ ...none, draft: 'v1.second' });
    await expect(store.getAnswers(mine.id, 'browser-b')).resolves.toEqual({ ...none, draft: 'v1.other' });
    await expect(store.getAnswers(mine.id, 'browser-c')).resolves.toEqual(none);
    await expect(store.getAnswers(theirs.id, 'browser-a')).resolves.toEqual(none);
    // Reading the onboarding never reads its answers.
    await expect(store.get(mine.id)).resolves.toEqual(mine);
  });

  it("keeps a submission's answers and sender in its transaction and clears the sender's draft alone", async () => {
    const { store, scope, clock } = await setUp();
    const opened = onboarding(scope, clock.tick());
    await store.open(opened, 'token-1');
    await store.saveDraft(opened.id, 'browser-a', 'v1.draft-a', clock.tick());
    await store.saveDraft(opened.id, 'browser-b', 'v1.draft-b', clock.tick());
    const submitted: Onboarding = { ...opened, state: 'submitted', submittedAt: clock.tick() };

    await store.saveSubmission(submitted, [], [], { answers: { sealed: 'v1.submitted', by: 'browser-a' } });
    const sent = { submitted: 'v1.submitted', submittedBy: 'browser-a' };
    await expect(store.getAnswers(opened.id, 'browser-a')).resolves.toEqual({ draft: null, ...sent });
    await expect(store.getAnswers(opened.id, 'browser-b')).resolves.toEqual({ draft: 'v1.draft-b', ...sent });

    // A draft after the submission sits beside it; a submission without answers leaves both.
    await store.saveDraft(opened.id, 'browser-a', 'v1.correction', clock.tick());
    await store.saveSubmission({ ...submitted, submittedAt: clock.tick() }, [], []);
    await expect(store.getAnswers(opened.id, 'browser-a')).resolves.toEqual({
      draft: 'v1.correction',
      ...sent,
    });

    // A submission from a browser without a binding is kept for no browser.
    await store.saveSubmission({ ...submitted, submittedAt: clock.tick() }, [], [], {
      answers: { sealed: 'v1.unbound', by: null },
    });
    await expect(store.getAnswers(opened.id, 'browser-a')).resolves.toEqual({
      draft: 'v1.correction',
      submitted: 'v1.unbound',
      submittedBy: null,
    });
  });

  it('writes no answers for a submission that fails', async () => {
    const { store, scope, clock } = await setUp();
    const never = onboarding(scope, clock.tick());
    await store.saveDraft(never.id, 'browser-a', 'v1.draft', clock.tick());

    await expect(
      store.saveSubmission({ ...never, state: 'submitted' }, [], [], {
        answers: { sealed: 'v1.orphan', by: 'browser-a' },
      }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(store.getAnswers(never.id, 'browser-a')).resolves.toEqual({ ...none, draft: 'v1.draft' });
  });
});
