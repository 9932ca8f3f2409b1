// unit -> the render queue's consumer (lambdas/hosts/render-records.ts): each message is one attempt of a
// contract run's Process step, answered through the run's task token with the step's output or its
// failure by name; a message it cannot read, a render its host stops, or an answer that does not go
// through are reported failed, for the queue to bring back (or keep aside). The ports are recorders.
import type { SQSEvent } from 'aws-lambda';
import type { ContractReview } from '../../lambdas/core/model';
import type { Services } from '../../lambdas/core/services';
import { renderRecords } from '../../lambdas/hosts/render-records';
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

/** Services whose contract reviews are `reviews`, recording every answer to a token. */
const servicesWith = (reviews: ContractReview[], { answersFail = false } = {}) => {
  const answers: unknown[] = [];
  const answer = async (...args: unknown[]) => {
    if (answersFail) throw new Error('Step Functions is unavailable');
    answers.push(args);
  };
  const services = {
    settings: { environment: 'production' },
    ports: {
      environment: 'production',
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
  const result = await renderRecords(services)(eventOf(attempt(overtaken, 1)));
  expect(result).toEqual({ batchItemFailures: [] });
  expect(answers).toEqual([['complete', TOKEN, { current: false, viewer: true, analysis: true }]]);
});

test('answers the Task with the step’s failure by its name, for the state to retry or catch', async () => {
  const { services, answers } = servicesWith([]);
  const result = await renderRecords(services)(eventOf(attempt(overtaken, 1)));
  expect(result).toEqual({ batchItemFailures: [] });
  expect(answers).toEqual([['fail', TOKEN, 'Error', `no contract review ${overtaken.id}`]]);
});

test('a message that is no Process attempt is reported failed, and no token is answered', async () => {
  const { services, answers } = servicesWith([overtaken]);
  const result = await renderRecords(services)(
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
  const result = await renderRecords(services)(eventOf(attempt(overtaken, 1)));
  expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
});

test('a render its host stops answers nothing and is left to the queue (the run is re-driven after the restart)', async () => {
  const { services, answers } = servicesWith([]);
  const stopping = AbortSignal.abort();
  const result = await renderRecords(services, stopping)(eventOf(attempt(overtaken, 1)));
  expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }] });
  expect(answers).toEqual([]);
});
