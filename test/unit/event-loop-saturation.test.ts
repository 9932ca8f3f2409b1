// The local stack's judge of a saturated event loop (local/event-loop-saturation.ts), on this process's
// own loop: kept busy through a whole window it is saturated; left to wait, it is not.
import { createHash } from 'node:crypto';
import { eventLoopSaturation } from '../../local/event-loop-saturation';
import { eventually } from '../support/eventually';

const block = Buffer.alloc(64 * 1024, 1);
/** A bound on the busy loop below, far past a window's worth of work, so a judge that never says yes fails. */
const MAX_ROUNDS = 2_000_000;

test('a loop kept busy through a window is saturated; one left waiting is not', async () => {
  const saturated = eventLoopSaturation();
  // Work without yielding, asking the judge between rounds, until it judges a whole window.
  let rounds = 0;
  while (!saturated() && rounds < MAX_ROUNDS) {
    createHash('sha256').update(block).digest();
    rounds += 1;
  }
  expect(saturated()).toBe(true);
  expect(rounds).toBeLessThan(MAX_ROUNDS);
  // Asked again within the window, the judgement stands.
  expect(saturated()).toBe(true);
  await eventually(
    async () => saturated(),
    (judged) => !judged,
    { what: 'the loop judged not saturated once it waits' },
  );
});
