// unit -> the ingest service's check of the origin secret header (lambdas/hosts/origin-verify.ts): the
// current, pending and previous values are all accepted, read again when they are five minutes old and
// when a header matches none (at most once in ten seconds), and a failed read keeps the values held.
import {
  ORIGIN_VALUES_MAX_AGE_MS,
  ORIGIN_VALUES_MIN_GAP_MS,
  originVerifier,
} from '../../lambdas/hosts/origin-verify';

/** A verifier over values the test changes as a rotation would, on a clock the test moves. */
const setup = (values: string[]) => {
  const state = { values, now: 1_000, reads: 0, failing: false };
  const verifier = originVerifier({
    read: async () => {
      state.reads++;
      if (state.failing) throw new Error('Secrets Manager unavailable');
      return [...state.values];
    },
    now: () => state.now,
  });
  return { state, verifier };
};

describe('originVerifier', () => {
  it('accepts each value read and nothing else: no header, an empty one, a repeated one, a near miss', async () => {
    const { verifier } = setup(['current-value', 'pending-value', 'previous-value']);
    await verifier.start();
    for (const value of ['current-value', 'pending-value', 'previous-value'])
      await expect(verifier.accepts(value)).resolves.toBe(true);
    for (const value of [undefined, '', 'current-valu', 'current-value ', ['current-value', 'current-value']])
      await expect(verifier.accepts(value)).resolves.toBe(false);
  });

  it('takes up a rotated value as soon as a request carries it (ten seconds after the last read at most)', async () => {
    const { state, verifier } = setup(['first-value']);
    await verifier.start();
    // setSecret: CloudFront starts sending the pending value.
    state.values = ['first-value', 'second-value'];
    state.now += ORIGIN_VALUES_MIN_GAP_MS;
    await expect(verifier.accepts('second-value')).resolves.toBe(true);
    expect(state.reads).toBe(2);
    // finishSecret: the old value is previous, still accepted; the new one is current.
    state.values = ['second-value', 'first-value'];
    await expect(verifier.accepts('first-value')).resolves.toBe(true);
    await expect(verifier.accepts('second-value')).resolves.toBe(true);
    expect(state.reads).toBe(2);
  });

  it('reads again at most once in ten seconds for headers that match nothing', async () => {
    const { state, verifier } = setup(['first-value']);
    await verifier.start();
    await Promise.all(Array.from({ length: 5 }, () => verifier.accepts('wrong')));
    state.now += ORIGIN_VALUES_MIN_GAP_MS - 1;
    await expect(verifier.accepts('wrong')).resolves.toBe(false);
    expect(state.reads).toBe(1);
    state.now += 1;
    await Promise.all([verifier.accepts('wrong'), verifier.accepts('wrong')]);
    expect(state.reads).toBe(2);
  });

  it('reads again values five minutes old, which a request that matches them also waits for', async () => {
    const { state, verifier } = setup(['first-value']);
    await verifier.start();
    state.now += ORIGIN_VALUES_MAX_AGE_MS - 1;
    await expect(verifier.accepts('first-value')).resolves.toBe(true);
    expect(state.reads).toBe(1);
    // Two rotations later the first value is gone.
    state.values = ['third-value', 'second-value'];
    state.now += 1;
    await expect(verifier.accepts('first-value')).resolves.toBe(false);
    expect(state.reads).toBe(2);
  });

  it('keeps the values held when a later read fails, and refuses to start with none', async () => {
    const { state, verifier } = setup(['first-value']);
    await verifier.start();
    state.failing = true;
    state.now += ORIGIN_VALUES_MAX_AGE_MS;
    await expect(verifier.accepts('first-value')).resolves.toBe(true);
    expect(state.reads).toBe(2);
    // Not read again straight away: the failed read counts for the gap.
    await expect(verifier.accepts('other')).resolves.toBe(false);
    expect(state.reads).toBe(2);

    await expect(setup([]).verifier.start()).rejects.toThrow(/no value/);
    const failing = setup(['first-value']);
    failing.state.failing = true;
    await expect(failing.verifier.start()).rejects.toThrow(/unavailable/);
  });
});
