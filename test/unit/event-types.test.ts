// The events an endpoint can subscribe to, as the portal and the MCP server list them.
import { readFile } from 'node:fs/promises';
import { EVENT_TYPES, listEventTypes } from '../../lambdas/core/events';
import { readEvents } from '../../lambdas/core/webhooks/endpoints';

test('every event type is listed once, in order, with when it happens and its data', () => {
  const { data } = listEventTypes();

  expect(data.map((e) => e.type)).toEqual([...EVENT_TYPES]);
  for (const event of data) {
    expect(event.when).toMatch(/^[A-Z].*\.$/);
    expect(event.data.length).toBeGreaterThan(0);
  }
});

test('an endpoint can subscribe to each listed type', () => {
  const types = listEventTypes().data.map((e) => e.type);

  expect(readEvents(types)).toEqual(types);
});

test("the README's event table is the list, row for row", async () => {
  const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
  const rows = [...readme.matchAll(/^\| `([a-z_.-]+)` \| (.+) \| (.+) \|$/gm)]
    .filter(([, type]) => (EVENT_TYPES as readonly string[]).includes(type as string))
    .map(([, type, when, data]) => ({ type, when, data }));

  expect(rows).toEqual(listEventTypes().data);
});
