// test -> watching a contract review go through the pipeline on a running local stack: polling it as an
// integrator does, and reading the events the stack recorded for it (the outbox webhooks will deliver).
import type { Environment } from '../../lambdas/core/model';
import { type Answer, bearer, call } from './api-client';
import type { RunningStack } from './local-stack';
import { portsOf } from './tenants';

/** Polls `GET /v1/contract-reviews/{id}` until `done` holds of it; fails with the last body after `timeoutMs`. */
export const waitForReview = async (
  base: string,
  token: string,
  id: string,
  done: (review: Answer['body']) => boolean,
  timeoutMs = 60_000,
): Promise<Answer['body']> => {
  const until = Date.now() + timeoutMs;
  let last: Answer | undefined;
  while (Date.now() < until) {
    last = await call(`${base}/v1/contract-reviews/${id}`, { headers: bearer(token) });
    if (last.status === 200 && done(last.body)) return last.body;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error(`contract review ${id} did not get there in ${timeoutMs} ms; last: ${last?.text}`);
};

export const publication = (review: Answer['body'], channel: string) =>
  (review.publications as Array<{ channel: string; state: string; url: string | null }>).find(
    (p) => p.channel === channel,
  );

export const isPublished = (channel: string) => (review: Answer['body']) =>
  publication(review, channel)?.state === 'published';

export interface RecordedEvent {
  type: string;
  occurredAt: number;
  data: { channel?: string; url?: string; contract_review: Answer['body'] };
}

/** The events recorded about one contract review, in the order they happened. */
export const eventsAbout = async (
  stack: RunningStack,
  environment: Environment,
  id: string,
): Promise<RecordedEvent[]> => {
  const ports = (await portsOf(stack))[environment];
  const events = await ports.outbox.pending(1000);
  return events
    .map((event) => ({ type: event.type, occurredAt: event.occurredAt, data: JSON.parse(event.data) }))
    .filter((event) => event.data.contract_review?.id === id);
};
