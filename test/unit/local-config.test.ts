// The local stack's settings (decisions.md §9), read from the environment and validated, with the
// bench's switch for the request history.
import { readLocalConfig } from '../../lambdas/hosts/local-config';

test('defaults: rate limits and request history on', () => {
  expect(readLocalConfig({})).toEqual(
    expect.objectContaining({ portBase: 3000, delayScale: 1, rateLimits: true, requestHistory: true }),
  );
});

test('REQUEST_HISTORY=off records no history; any other value than on or off is refused', () => {
  expect(readLocalConfig({ REQUEST_HISTORY: 'off' }).requestHistory).toBe(false);
  expect(readLocalConfig({ REQUEST_HISTORY: 'on' }).requestHistory).toBe(true);
  for (const value of ['no', 'false', '0', 'OFF', ''])
    expect(() => readLocalConfig({ REQUEST_HISTORY: value })).toThrow(
      /invalid local stack settings: REQUEST_HISTORY/,
    );
});
