// unit -> the adapters raise their SDKs' faults as the core's DependencyUnavailable
// (lambdas/adapters/unavailable.ts), which the API answers 503 and a workflow retries.
import { translatingFaults } from '../../lambdas/adapters/unavailable';
import { DependencyUnavailable, isDependencyUnavailable, ServiceError } from '../../lambdas/core/errors';

/** A port shaped like the stores: a class with private state and async methods. */
class Store {
  #calls = 0;
  constructor(private readonly fault: unknown) {}
  async get(): Promise<number> {
    this.#calls++;
    if (this.fault) throw this.fault;
    return this.#calls;
  }
  syncGet(): number {
    if (this.fault) throw this.fault;
    return 1;
  }
  get calls(): number {
    return this.#calls;
  }
}

const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
const serverError = Object.assign(new Error('internal'), { $metadata: { httpStatusCode: 500 } });
const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

describe('translatingFaults', () => {
  test.each([
    ['a throttled call', throttled],
    ['a 5xx from the service', serverError],
    ['a network failure', reset],
    ['a network failure behind another error', new Error('wrapped', { cause: reset })],
  ])('%s becomes DependencyUnavailable, keeping the fault as its cause', async (_, fault) => {
    const store = translatingFaults(new Store(fault));
    const error = await store.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyUnavailable);
    expect((error as Error).cause).toBe(fault);
    expect(() => store.syncGet()).toThrow(DependencyUnavailable);
  });

  test('any other fault passes as it is: a refusal, a not-found, a bug', async () => {
    for (const fault of [new ServiceError('not_found', 'No such thing.'), new TypeError('x is undefined')]) {
      const error = await translatingFaults(new Store(fault))
        .get()
        .catch((e: unknown) => e);
      expect(error).toBe(fault);
    }
  });

  test('a healthy port answers as before, its private state and getters intact', async () => {
    const store = translatingFaults(new Store(null));
    expect(await store.get()).toBe(1);
    expect(await store.get()).toBe(2);
    expect(store.calls).toBe(2);
  });
});

describe('isDependencyUnavailable (core)', () => {
  test('finds DependencyUnavailable in the cause chain and in an AggregateError, nothing else', () => {
    const unavailable = new DependencyUnavailable(throttled);
    expect(isDependencyUnavailable(unavailable)).toBe(true);
    expect(isDependencyUnavailable(new Error('step failed', { cause: unavailable }))).toBe(true);
    expect(isDependencyUnavailable(new AggregateError([new Error('x'), unavailable]))).toBe(true);
    // An SDK's raw fault is the adapters' to translate: the core does not read SDK shapes.
    expect(isDependencyUnavailable(throttled)).toBe(false);
    expect(isDependencyUnavailable('down')).toBe(false);
  });
});
