// unit -> the render queue's consumer (lambdas/hosts/queue-consumers/render-records.ts): each message is one attempt of a
// contract run's Process step, answered through the run's task token with the step's output or its
// failure by name; a message it cannot read, a render its host stops, or an answer that does not go
// through are reported failed, for the queue to bring back (or keep aside); an attempt whose organisation
// holds all its render slots is sent to the back of the queue, delayed. The ports are recorders.
import type { SQSEvent } from 'aws-lambda';
import type { ContractReview } from '../../lambdas/core/model';
import type { QueuedWork, RenderSlots } from '../../lambdas/core/ports';
import type { Services } from '../../lambdas/core/services';
import { type RenderFairness, renderRecords } from '../../lambdas/hosts/queue-consumers/render-records';
import { contractReview, scopeIn } from '../support/fixtures';

const TOKEN = 'token-of-the-process-task';

const eventOf = (...bodies: string[]): SQSEvent =>
  ({ Records: bodies.map((body, i) => ({ messageId: `m${i + 1}`, body })) }) as unknown as SQSEvent;

/** The attempt of version `version` of `review`, as the Process state sends it. */
const attempt = (review: ContractReview, version: number) =>
  JSON.stringify({
    kind: 'contract',
    environment: 'production',
    contractReviewId: review.id,
    version,
    taskToken: TOKEN,
  });

/** Render slots in memory: `held` of each organisation's are taken by renders elsewhere. */
const slotsIn = (held: Record<string, number> = {}) => {
  const holders = new Map<string, string>();
  const given: string[] = [];
  const slots: RenderSlots = {
    take: async (organisationId, holder, limit) => {
      for (let index = held[organisationId] ?? 0; index < limit; index++) {
        const key = `${organisationId}#${index}`;
        if (holders.has(key)) continue;
        holders.set(key, holder);
        return index;
      }
      return null;
    },
    renew: async (organisationId, index, holder) => holders.get(`${organisationId}#${index}`) === holder,
    give: async (organisationId, index, holder) => {
      const key = `${organisationId}#${index}`;
      if (holders.get(key) === holder) holders.delete(key);
      given.push(key);
    },
  };
  return { slots, holders, given };
};

/** One render per organisation; what is sent back to the queue is recorded. */
const fairnessOf = () => {
  const requeued: QueuedWork[] = [];
  const fairness: RenderFairness = {
    perOrganisation: 1,
    queue: { send: async (messages) => void requeued.push(...messages) },
    retrySeconds: 7,
  };
  return { fairness, requeued };
};

/** Services whose contract reviews are `reviews`, recording every answer to a token. */
const servicesWith = (reviews: ContractReview[], { answersFail = false, slots = slotsIn().slots } = {}) => {
  const answers: unknown[] = [];
  const answer = async (...args: unknown[]) => {
    if (answersFail) throw new Error('Step Functions is unavailable');
    answers.push(args);
  };
  const services = {
    settings: { environment: 'production' },
    ports: {
      environment: 'production',
      clock: { now: () => Date.now() * 1000 },
      renderSlots: slots,
      contractReviews: { get: async (id: string) => reviews.find((review) => review.id === id) ?? null },
      workflows: {
        completeWait: (token: string, output: object) => answer('complete', token, output),
        failWait: (token: string, error: string, cause: string) => answer('fail', token, error, cause),
      },
    },
  } as unknown as Services;
  return { services, answers };
};

/** Version 2 is the latest: the attempt of version 1 has nothing to render, and says so in its plan. */
const overtaken = contractReview(scopeIn('production'), 1, { version: 2 });

test('answers the Task with the step’s output: here the plan of a version a newer one overtook', async () => {
  const { services, answers } = servicesWith([overtaken]);
  const result = await renderRecords(services, fairnessOf().fairness)(eventOf(attempt(overtaken, 1)));
  expect(result).toEqual({ batchItemFailures: [] });
  expect(answers).toEqual([['complete', TOKEN, { current: false, viewer: true, analysis: true }]]);
});

test('answers the Task with the step’s failure by its name, for the state to retry or catch', async () => {
  const { services, answers } = servicesWith([]);
  const result = await renderRecords(services, fairnessOf().fairness)(eventOf(attempt(overtaken, 1)));
  expect(result).toEqual({ batchItemFailures: [] });
  expect(answers).toEqual([['fail', TOKEN, 'Error', `no contract review ${overtaken.id}`]]);
});

test('a message that is no Process attempt is reported failed, and no token is answered', async () => {
  const { services, answers } = servicesWith([overtaken]);
  const result = await renderRecords(
    services,
    fairnessOf().fairness,
  )(
    eventOf(
      'not json',
      JSON.stringify({ kind: 'contract', environment: 'production' }),
      attempt(overtaken, 1),
    ),
  );
  expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }, { itemIdentifier: 'm2' }] });
  expect(answers).toHaveLength(1);
});

test('an answer that does not go through is reported failed, for the queue to bring the attempt back', async () => {
  const { services } = servicesWith([overtaken], { answersFail: true });
  const result = await renderRecords(services, fairnessOf().fairness)(eventOf(attempt(overtaken, 1)));
  expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
});

test('a render its host stops answers nothing and is left to the queue (the run is re-driven after the restart)', async () => {
  const { services, answers } = servicesWith([]);
  const stopping = AbortSignal.abort();
  const result = await renderRecords(
    services,
    fairnessOf().fairness,
    stopping,
  )(eventOf(attempt(overtaken, 1)));
  expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
  expect(answers).toEqual([]);
});

test('a render holds one of its organisation’s slots while it runs, and gives it back after', async () => {
  const { slots, holders, given } = slotsIn();
  const { services, answers } = servicesWith([overtaken], { slots });
  const { fairness, requeued } = fairnessOf();
  const result = await renderRecords(services, fairness)(eventOf(attempt(overtaken, 1)));
  expect(result).toEqual({ batchItemFailures: [] });
  expect(answers).toHaveLength(1);
  expect(given).toEqual([`${overtaken.scope.organisationId}#0`]);
  expect(holders.size).toBe(0);
  expect(requeued).toEqual([]);
});

test('an attempt whose organisation holds all its slots waits its turn: sent back delayed, nothing answered', async () => {
  const { slots } = slotsIn({ [overtaken.scope.organisationId]: 1 });
  const { services, answers } = servicesWith([overtaken], { slots });
  const { fairness, requeued } = fairnessOf();
  const body = attempt(overtaken, 1);
  const result = await renderRecords(services, fairness)(eventOf(body));
  // This message is done: its copy, the same attempt with the same token, comes back after the delay.
  expect(result).toEqual({ batchItemFailures: [] });
  expect(requeued).toEqual([{ body, delaySeconds: 7 }]);
  expect(answers).toEqual([]);
});

test('another organisation’s attempt renders while the first holds all of its own slots', async () => {
  const other = contractReview(scopeIn('production', 'org_other'), 1, { version: 2 });
  const { slots } = slotsIn({ [overtaken.scope.organisationId]: 1 });
  const { services, answers } = servicesWith([overtaken, other], { slots });
  const { fairness, requeued } = fairnessOf();
  await renderRecords(services, fairness)(eventOf(attempt(overtaken, 1), attempt(other, 1)));
  expect(requeued).toHaveLength(1);
  expect(answers).toEqual([['complete', TOKEN, { current: false, viewer: true, analysis: true }]]);
});

test('a send back that fails leaves the message to the queue, which brings it back', async () => {
  const { slots } = slotsIn({ [overtaken.scope.organisationId]: 1 });
  const { services } = servicesWith([overtaken], { slots });
  const fairness: RenderFairness = {
    ...fairnessOf().fairness,
    queue: {
      send: async () => {
        throw new Error('SQS is unavailable');
      },
    },
  };
  const result = await renderRecords(services, fairness)(eventOf(attempt(overtaken, 1)));
  expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
});
