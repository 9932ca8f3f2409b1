// The local stack's judge of a saturated event loop (local/event-loop-saturation.ts), on this process's
// own loop: kept busy through a whole window it is saturated; left to wait, it is not.
import { performance } from 'node:perf_hooks';
import { eventLoopSaturation } from '../../local/event-loop-saturation';
import { eventually } from '../support/eventually';

/** Runs on the event loop, never yielding, for `ms`. */
const keepBusy = (ms: number): void => {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
};

test('a loop kept busy through a window is saturated; one left waiting is not', async () => {
  const saturated = eventLoopSaturation();
  keepBusy(400);
  expect(saturated()).toBe(true);
  // Asked again within the window, the judgement stands.
  expect(saturated()).toBe(true);
  await eventually(
    async () => saturated(),
    (judged) => !judged,
    { what: 'the loop judged not saturated once it waits' },
  );
});
