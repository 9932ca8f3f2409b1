// The event outbox over DynamoDB Local: events written in the transaction of their change, pending
// oldest first until fanned out, and never written when the change fails.
import { DynamoDbEventOutbox } from '../../lambdas/adapters/dynamodb/event-outbox';
import { DynamoDbOnboardingStore } from '../../lambdas/adapters/dynamodb/onboarding-store';
import { DynamoDbWebhookMessageStore } from '../../lambdas/adapters/dynamodb/webhook-message-store';
import { randomIds } from '../../lambdas/adapters/random-ids';
import { clientEvent } from '../../lambdas/core/events';
import type { Onboarding } from '../../lambdas/core/model';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { client, onboarding, scopeIn, TestClock } from '../support/fixtures';

const db = useTestDynamoDb();
const ids = randomIds();

const setUp = async () => {
  const tableName = await db.freshTable();
  const clock = new TestClock();
  const store = new DynamoDbOnboardingStore(db.doc, tableName, clock);
  const outbox = new DynamoDbEventOutbox(db.doc, tableName);
  const messages = new DynamoDbWebhookMessageStore(db.doc, tableName);
  const opened = onboarding(scopeIn('sandbox'), clock.tick());
  await store.open(opened, `token-${opened.id}`);
  return { clock, store, outbox, messages, opened };
};

/** A submission of `count` buyers (the first primary), saved with one clients.submitted per buyer. */
const submit = async ({ clock, store, opened }: Awaited<ReturnType<typeof setUp>>, count: number) => {
  const at = clock.tick();
  const buyers = Array.from({ length: count }, (_, i) => client(opened, at, { primary: i === 0 }));
  const submitted: Onboarding = {
    ...opened,
    state: 'submitted',
    clientIds: buyers.map((b) => b.id),
    submittedAt: at,
  };
  const events = buyers.map((buyer, i) => clientEvent(ids, 'clients.submitted', buyer, at + i));
  await store.saveSubmission(submitted, buyers, events);
  return { buyers, events };
};

test('a submission records one clients.submitted per buyer with it; pending oldest first until fanned out', async () => {
  const setup = await setUp();
  const { outbox, messages, opened } = setup;
  const { buyers, events } = await submit(setup, 2);

  const pending = await outbox.pending(10);
  expect(pending).toEqual(events);
  expect(JSON.parse(pending[0]?.data ?? '')).toEqual({
    client_id: buyers[0]?.id,
    onboarding_id: opened.id,
    reference: opened.reference,
    primary: true,
    first_name: buyers[0]?.firstName,
    last_name: buyers[0]?.lastName,
    email: buyers[0]?.email,
  });

  // Fanned out (here to no endpoint), an event leaves the pending list and stays readable; once only.
  await expect(messages.fanOut(events[0]?.id as string, [])).resolves.toBe(true);
  expect((await outbox.pending(10)).map((e) => e.id)).toEqual([events[1]?.id]);
  expect(await outbox.get(events[0]?.id as string)).toEqual(events[0]);
  await expect(messages.fanOut(events[0]?.id as string, [])).resolves.toBe(false);
  await expect(messages.fanOut('evt_never', [])).resolves.toBe(false);
});

test('an acceptance records its events with it', async () => {
  const { clock, store, outbox, opened } = await setUp();
  const buyer = client(opened, clock.tick(), { primary: true });
  // Only a submission is accepted: the store writes an acceptance while the onboarding is `submitted`.
  const submitted: Onboarding = {
    ...opened,
    state: 'submitted',
    clientIds: [buyer.id],
    submittedAt: clock.tick(),
  };
  await store.saveSubmission(submitted, [buyer], []);
  const accepted: Onboarding = { ...submitted, state: 'accepted', acceptedAt: clock.tick() };
  const event = clientEvent(ids, 'clients.accepted', buyer, clock.now());
  await store.saveAcceptance(accepted, [event]);
  expect(await outbox.pending(10)).toEqual([event]);
  expect((await store.get(opened.id))?.state).toBe('accepted');
});

test('a change that fails records none of its events', async () => {
  const { clock, store, outbox } = await setUp();
  const never = onboarding(scopeIn('sandbox'), clock.tick());
  const buyer = client(never, clock.tick());
  const event = clientEvent(ids, 'clients.submitted', buyer, clock.now());
  await expect(
    store.saveSubmission({ ...never, state: 'submitted' }, [buyer], [event]),
  ).rejects.toMatchObject({ code: 'not_found' });
  await expect(store.saveAcceptance({ ...never, state: 'accepted' }, [event])).rejects.toMatchObject({
    code: 'not_found',
  });
  expect(await outbox.pending(10)).toEqual([]);
  expect(await outbox.get(event.id)).toBeNull();
});

test('publishable: pending events never published or published before the bound, oldest first, past pages of others', async () => {
  const setup = await setUp();
  const { clock, outbox, messages } = setup;
  const { events } = await submit(setup, 5);
  const idsOf = (list: Array<{ id: string }>) => list.map((e) => e.id);

  expect(await outbox.publishable(10, clock.now())).toEqual(events);
  // The three oldest published now: with limit 2, the query reads past them to the two not yet published.
  const now = clock.tick();
  await outbox.markPublished(idsOf(events.slice(0, 3)), now);
  expect(idsOf(await outbox.publishable(2, now))).toEqual(idsOf(events.slice(3)));
  // Published before the bound: publishable again (a publish that was lost), still in order.
  expect(idsOf(await outbox.publishable(10, now + 1))).toEqual(idsOf(events));
  // Fanned out: gone from both lists, and marking it published leaves it out of the index.
  await messages.fanOut(events[0]?.id as string, []);
  await outbox.markPublished([events[0]?.id as string], clock.tick());
  expect(idsOf(await outbox.pending(10))).toEqual(idsOf(events.slice(1)));
  expect(idsOf(await outbox.publishable(10, clock.now() + 1))).toEqual(idsOf(events.slice(1)));
  // An id that was never recorded is no fault.
  await expect(outbox.markPublished(['evt_never'], clock.tick())).resolves.toBeUndefined();
});
