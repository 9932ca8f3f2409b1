// host -> work an API function finishes after its answer has gone: an internal Lambda extension. Lambda
// freezes an instance once its handler has returned AND every extension has asked for its next event, so
// an extension that asks only when the invocation's work is done lets that work (the call's request
// history) run after the runtime has sent the answer, instead of delaying it. The extension runs inside
// the function's own process and talks to the Extensions API over HTTP
// (https://docs.aws.amazon.com/lambda/latest/dg/runtimes-extensions-api.html). It must register during
// the instance's init, which is why API functions' entries `await` their handler.
import { log } from '../../core/log';

const API_VERSION = '2020-01-01';
/** Extensions' names are free; this one says what it is in Lambda's own log lines. */
const EXTENSION_NAME = 'request-history-after-response';
/**
 * The longest an invocation's work holds the instance after its answer: a slow or throttled table delays
 * at most this instance's next call by it (the answer already went), and a write still going on is left
 * for the next invocation's flush.
 */
export const AFTER_RESPONSE_WAIT_MS = 2_000;

export interface AfterResponse {
  /**
   * `work` of the invocation `requestId` (the handler's `context.awsRequestId`) runs on after the
   * handler returns; the instance is frozen once it has settled (or after the wait at most). Call it
   * once for every invocation, with a settled promise when there is nothing to do, or the instance waits.
   */
  finish(requestId: string, work: Promise<unknown>): void;
}

interface InvokeEvent {
  eventType: 'INVOKE' | 'SHUTDOWN';
  requestId?: string;
}

/** What the handler hands over, by invocation: either side may come first. */
class WorkByInvocation {
  private readonly slots = new Map<
    string,
    { work: Promise<unknown>; hand: (work: Promise<unknown>) => void }
  >();

  private slot(requestId: string) {
    let slot = this.slots.get(requestId);
    if (!slot) {
      let hand: (work: Promise<unknown>) => void = () => {};
      const work = new Promise<unknown>((resolve) => {
        hand = (given) => resolve(given.catch(() => {}));
      });
      slot = { work, hand };
      this.slots.set(requestId, slot);
    }
    return slot;
  }

  hand(requestId: string, work: Promise<unknown>): void {
    this.slot(requestId).hand(work);
  }

  /** Waits for the invocation's work to be handed over and settle, `ms` at most; forgets it either way. */
  async settled(requestId: string, ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    await Promise.race([this.slot(requestId).work, waited]);
    clearTimeout(timer);
    this.slots.delete(requestId);
  }
}

/**
 * Registers the extension with the Extensions API at `runtimeApi` (Lambda's `AWS_LAMBDA_RUNTIME_API`)
 * and starts its loop; null outside Lambda or when registering fails, so the caller writes before it
 * answers, as it would without the extension.
 */
export const registerAfterResponse = async ({
  runtimeApi = process.env.AWS_LAMBDA_RUNTIME_API,
  waitMs = AFTER_RESPONSE_WAIT_MS,
  // A broken Extensions API ends the instance (Lambda starts a new one), which is better than an
  // instance whose invocations never end; tests pass their own.
  stopped = () => process.exit(1),
}: {
  runtimeApi?: string | undefined;
  waitMs?: number;
  stopped?: () => void;
} = {}): Promise<AfterResponse | null> => {
  if (!runtimeApi) return null;
  const base = `http://${runtimeApi}/${API_VERSION}/extension`;
  let identifier: string | null;
  try {
    const registered = await fetch(`${base}/register`, {
      method: 'POST',
      headers: { 'Lambda-Extension-Name': EXTENSION_NAME, 'Content-Type': 'application/json' },
      // Internal extensions may only register for INVOKE.
      body: JSON.stringify({ events: ['INVOKE'] }),
    });
    await registered.body?.cancel();
    identifier = registered.ok ? registered.headers.get('Lambda-Extension-Identifier') : null;
    if (!identifier) throw new Error(`the Extensions API answered ${registered.status}`);
  } catch (error) {
    log.warn('request history: no after-response extension; written before each answer', { error });
    return null;
  }

  const work = new WorkByInvocation();
  const loop = async (id: string) => {
    for (;;) {
      // Asking for the next event says this invocation's work is done: the first ask ends the init.
      const answer = await fetch(`${base}/event/next`, { headers: { 'Lambda-Extension-Identifier': id } });
      const event = (await answer.json()) as InvokeEvent;
      if (event.eventType === 'INVOKE' && event.requestId) await work.settled(event.requestId, waitMs);
    }
  };
  // The loop lives as long as the instance.
  loop(identifier).catch((error: unknown) => {
    log.error('request history: the after-response extension stopped', { error });
    stopped();
  });
  return { finish: (requestId, given) => work.hand(requestId, given) };
};
