// The local stack's settings (decisions.md §9), read from the environment and validated, with the
// bench's switch for the request history.
import { readLocalConfig } from '../../local/config';

test('defaults: rate limits and request history on', () => {
  expect(readLocalConfig({})).toEqual(
    expect.objectContaining({
      portBase: 3000,
      delayScale: 1,
      rateLimits: true,
      rateRefillScale: 1,
      requestHistory: true,
    }),
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

test('RATE_REFILL_SCALE: a positive number; anything else is refused', () => {
  expect(readLocalConfig({ RATE_REFILL_SCALE: '1000' }).rateRefillScale).toBe(1000);
  expect(readLocalConfig({ RATE_REFILL_SCALE: '2.5' }).rateRefillScale).toBe(2.5);
  for (const value of ['0', '-1', 'fast', ''])
    expect(() => readLocalConfig({ RATE_REFILL_SCALE: value })).toThrow(
      /invalid local stack settings: RATE_REFILL_SCALE/,
    );
});
