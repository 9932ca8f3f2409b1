// api -> the back office's operator commands beside a running local stack (decisions.md §9 and §11):
// dev-bootstrap's local staff (people the identity provider signs in, with their roles; dev@ stays an
// integrator), staff-add / staff-list / staff-remove, and audit-log reading what they and the other
// operator commands changed, newest first, filtered and paged.
import { verifyPassword } from '../../lambdas/core/people/password-hash';
import { devBootstrap, ops, type RunningStack, useLocalStack } from '../support/local-stack';
import { directoryOf } from '../support/tenants';

let stack: RunningStack;
useLocalStack((started) => {
  stack = started;
});

const json = async (...args: string[]) => {
  const result = await ops(stack, ...args);
  if (result.code !== 0) throw new Error(`ops ${args.join(' ')} failed: ${result.stderr}`);
  return result.json as Record<string, unknown> & { data: Array<Record<string, unknown>> };
};

test('dev-bootstrap makes the local lawyer and operator (and again changes nothing); dev@ is no staff', async () => {
  await devBootstrap(stack);
  await devBootstrap(stack);
  const directory = await directoryOf(stack);
  for (const email of ['lawyer@localhost.test', 'operator@localhost.test']) {
    const person = await directory.people.findByEmail(email);
    expect(person === null ? false : await verifyPassword('local-dev-password', person.passwordHash)).toBe(
      true,
    );
  }
  const staff = await json('staff-list');
  expect(staff.data.map((m) => [m.email, m.name, m.roles])).toEqual([
    ['lawyer@localhost.test', 'Local Lawyer', ['lawyer']],
    ['operator@localhost.test', 'Local Operator', ['operator', 'admin']],
  ]);
  // Recorded once each: the second run found them as they were.
  const changes = await json('audit-log', '--action', 'staff.changed');
  expect(changes.data.map((e) => e.target).sort()).toEqual([
    'lawyer@localhost.test',
    'operator@localhost.test',
  ]);
});

test('staff-add, staff-list and staff-remove, each audited; bad input is refused with a message', async () => {
  const added = await json(
    'staff-add',
    'Ana@Example.com',
    '--role',
    'lawyer',
    '--role',
    'operator',
    '--name',
    '  Ana Lee ',
  );
  expect(added).toMatchObject({ email: 'ana@example.com', name: 'Ana Lee', roles: ['lawyer', 'operator'] });
  // Without --name the member keeps the name they had.
  expect(await json('staff-add', 'ana@example.com', '--role', 'admin')).toMatchObject({
    name: 'Ana Lee',
    roles: ['admin'],
  });
  expect((await json('staff-list')).data.find((m) => m.email === 'ana@example.com')).toMatchObject({
    name: 'Ana Lee',
  });

  for (const name of ['   ', 'x'.repeat(101), 'tab\there']) {
    const badName = await ops(stack, 'staff-add', 'ben@example.com', '--role', 'lawyer', '--name', name);
    expect([badName.code, badName.stderr]).toEqual([
      1,
      expect.stringContaining("A staff member's name is 1 to"),
    ]);
  }

  const badRole = await ops(stack, 'staff-add', 'ben@example.com', '--role', 'boss');
  expect([badRole.code, badRole.stderr]).toEqual([1, expect.stringContaining('Unknown role boss')]);
  const noRole = await ops(stack, 'staff-add', 'ben@example.com');
  expect([noRole.code, noRole.stderr]).toEqual([1, expect.stringContaining('at least one role')]);
  const badEmail = await ops(stack, 'staff-add', 'not-an-email', '--role', 'lawyer');
  expect([badEmail.code, badEmail.stderr]).toEqual([1, expect.stringContaining('not an email address')]);

  expect(await json('staff-remove', 'ana@example.com')).toEqual({ email: 'ana@example.com', removed: true });
  expect((await json('staff-list')).data.map((m) => m.email)).not.toContain('ana@example.com');
  const again = await ops(stack, 'staff-remove', 'ana@example.com');
  expect([again.code, again.stderr]).toEqual([1, expect.stringContaining('not a member of the staff')]);

  const ana = await json('audit-log', '--staff', 'operator tool', '--limit', '3');
  expect(ana.data.map((e) => [e.action, e.target, e.details])).toEqual([
    ['staff.removed', 'ana@example.com', { roles_before: 'admin' }],
    [
      'staff.changed',
      'ana@example.com',
      { roles_before: 'lawyer,operator', roles: 'admin', name_before: 'Ana Lee', name: 'Ana Lee' },
    ],
    [
      'staff.changed',
      'ana@example.com',
      { roles_before: null, roles: 'lawyer,operator', name_before: null, name: 'Ana Lee' },
    ],
  ]);
  // Nothing was recorded for the refused names.
  expect((await json('staff-list')).data.map((m) => m.email)).not.toContain('ben@example.com');
  expect(ana.has_more).toBe(true);
  expect(ana.data[0]).toMatchObject({ staff: 'operator tool', environment: null, time: expect.any(String) });
});

test('audit-log shows set-budget in the sandbox, pages by --starting-after, and refuses a bad filter', async () => {
  const boot = await devBootstrap(stack);
  await json('set-budget', boot.organisation_id, '7');
  const sandbox = await json('audit-log', '--environment', 'sandbox', '--action', 'budget.set');
  expect(sandbox.data[0]).toMatchObject({
    action: 'budget.set',
    target: boot.organisation_id,
    environment: 'sandbox',
    details: { total: 7 },
  });
  const production = await json('audit-log', '--environment', 'production', '--action', 'budget.set');
  expect(production.data).toEqual([]);

  const first = await json('audit-log', '--limit', '1');
  const second = await json('audit-log', '--limit', '1', '--starting-after', String(first.data[0]?.id));
  expect(second.data).toHaveLength(1);
  expect(second.data[0]?.id).not.toBe(first.data[0]?.id);
  expect(String(second.data[0]?.time) <= String(first.data[0]?.time)).toBe(true);

  const bad = await ops(stack, 'audit-log', '--action', 'everything');
  expect([bad.code, bad.stderr]).toEqual([1, expect.stringContaining('filter_invalid')]);
  const badAfter = await ops(stack, 'audit-log', '--starting-after', 'aud_nothing');
  expect([badAfter.code, badAfter.stderr]).toEqual([1, expect.stringContaining('starting_after_invalid')]);
});
