// adapters -> an organisation's render slots in DynamoDB Local (adapters/dynamodb/render-slots.ts): at
// most `limit` held at once, however many renders ask together; a lapsed lease is free again; only its
// holder renews or gives back a slot.
import { DynamoDbRenderSlots } from '../../lambdas/adapters/dynamodb/render-slots';
import { useTestDynamoDb } from '../support/dynamodb-local';
import { SECOND, TestClock } from '../support/fixtures';

const db = useTestDynamoDb();

const setUp = async () => {
  const tableName = await db.freshTable();
  const clock = new TestClock();
  return { clock, slots: new DynamoDbRenderSlots(db.doc, tableName, clock) };
};

const LEASE = 120 * SECOND;

test('twenty renders asking at once for one organisation’s three slots: three hold one each', async () => {
  const { clock, slots } = await setUp();
  const until = clock.now() + LEASE;
  const taken = await Promise.all(
    Array.from({ length: 20 }, (_, n) => slots.take('org_a', `render-${n}`, 3, until)),
  );
  const held = taken.filter((index) => index !== null);
  expect(held.sort()).toEqual([0, 1, 2]);
  // Another organisation's slots are its own.
  await expect(slots.take('org_b', 'render-b', 3, until)).resolves.not.toBeNull();
});

test('a slot given back is free again; one given back by another holder is not', async () => {
  const { clock, slots } = await setUp();
  const until = clock.now() + LEASE;
  const index = await slots.take('org_a', 'first', 1, until);
  expect(index).toBe(0);
  await expect(slots.take('org_a', 'second', 1, until)).resolves.toBeNull();
  await slots.give('org_a', 0, 'second');
  await expect(slots.take('org_a', 'second', 1, until)).resolves.toBeNull();
  await slots.give('org_a', 0, 'first');
  await expect(slots.take('org_a', 'second', 1, until)).resolves.toBe(0);
});

test('a lease that is not renewed lapses and its slot is taken; the old holder learns it lost it', async () => {
  const { clock, slots } = await setUp();
  await slots.take('org_a', 'died', 1, clock.now() + LEASE);
  clock.advance(LEASE / 2);
  await expect(slots.take('org_a', 'next', 1, clock.now() + LEASE)).resolves.toBeNull();
  clock.advance(LEASE);
  await expect(slots.take('org_a', 'next', 1, clock.now() + LEASE)).resolves.toBe(0);
  await expect(slots.renew('org_a', 0, 'died', clock.now() + LEASE)).resolves.toBe(false);
});

test('a renewed lease outlives its first end', async () => {
  const { clock, slots } = await setUp();
  await slots.take('org_a', 'long', 1, clock.now() + LEASE);
  clock.advance(LEASE / 2);
  await expect(slots.renew('org_a', 0, 'long', clock.now() + LEASE)).resolves.toBe(true);
  clock.advance(LEASE * 0.75);
  await expect(slots.take('org_a', 'next', 1, clock.now() + LEASE)).resolves.toBeNull();
});
