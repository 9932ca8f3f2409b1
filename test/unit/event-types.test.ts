// The events an endpoint can subscribe to, as the portal and the MCP server list them.
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
