// host -> rendering as a queue's consumer, the same deployed (an SQS event source mapping: one message at
// a time, a bounded number at once) and locally (local/queue-consumer.ts). Each message is one attempt
// of a contract run's Process step, sent by that state (`sqs:sendMessage.waitForTaskToken`) with its
// task token: the consumer runs the step, then answers the Task with the token, with the step's output
// or its failure by name, which the state retries or catches as when it invoked the step itself. So a
// burst of uploads waits in the queue, and only so many renders run at once; and of those, only so many
// for one organisation (core/contracts/render-slots.ts): an attempt whose organisation has them all is
// sent to the back of the queue again, delayed, and this message is done.

import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { withRenderSlot } from '../../core/contracts/render-slots';
import { parseJson } from '../../core/json';
import { log } from '../../core/log';
import type { Ports, WorkQueue } from '../../core/ports';
import type { Services } from '../../core/services';
import { processContract } from '../../workers/process-contract';
import { TokenRunInput } from '../../workers/worker';

const failed = (record: SQSRecord) => ({ itemIdentifier: record.messageId });

/** What rendering calls: the step's ports, the render slots and the workflows it answers. */
export type RenderServices = Services<
  Pick<Ports, 'blobs' | 'clock' | 'contractReviews' | 'ids' | 'renderer' | 'renderSlots' | 'workflows'>
>;

/** How one organisation's share of the renders is kept. */
export interface RenderFairness {
  /** Renders one organisation may run at once (`rendersPerOrganisation` of the consumer's concurrency). */
  perOrganisation: number;
  /** The render queue itself, where an attempt that must wait its turn is sent again. */
  queue: WorkQueue;
  /** How long such an attempt waits before a consumer sees it again. */
  retrySeconds: number;
}

/**
 * The consumer of an environment's render queue. `stopping` (the local stack) aborts a render under
 * way: its message is left to the queue, and the run, re-driven after the restart, sends another.
 */
export const renderRecords =
  (services: RenderServices, fairness: RenderFairness, stopping?: AbortSignal) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      // A queued attempt of the Process step: the run, and the token its Task waits with.
      const json = parseJson(record.body);
      const parsed = json.ok ? TokenRunInput.safeParse(json.value) : null;
      if (!parsed?.success) {
        // Kept aside in the dead-letter queue after its receives: no run waits for it under a token.
        log.error('a render message that is no Process attempt', { queue_message_id: record.messageId });
        failures.push(failed(record));
        continue;
      }
      const { taskToken, ...run } = parsed.data;
      log.debug('render attempt received', { id: run.contractReviewId, queue_message_id: record.messageId });
      const { workflows } = services.ports;
      let answer: () => Promise<void>;
      try {
        const review = await services.ports.contractReviews.get(run.contractReviewId);
        if (review === null) throw new Error(`no contract review ${run.contractReviewId}`);
        const slot = {
          organisationId: review.scope.organisationId,
          holder: randomUUID(),
          limit: fairness.perOrganisation,
        };
        const outcome = await withRenderSlot(services.ports, slot, () =>
          processContract.perform(run, services, stopping),
        );
        if (outcome.ran) answer = () => workflows.completeWait(taskToken, outcome.value);
        // Its organisation has its share of the renders: this attempt waits behind everyone else's.
        else answer = () => fairness.queue.send([{ body: record.body, delaySeconds: fairness.retrySeconds }]);
      } catch (error) {
        if (stopping?.aborted) {
          failures.push(failed(record));
          continue;
        }
        const { name, message } = error instanceof Error ? error : new Error(String(error));
        answer = () => workflows.failWait(taskToken, name, message);
      }
      try {
        await answer();
        log.debug('render attempt answered', { id: run.contractReviewId });
      } catch (error) {
        // The step is idempotent: the queue brings the message back, and the step finds its work done
        // (or, for an attempt that was to wait its turn, tries again).
        log.error('a render could not answer its run or wait its turn; the queue will bring it back', {
          queue_message_id: record.messageId,
          error,
        });
        failures.push(failed(record));
      }
    }
    return { batchItemFailures: failures };
  };
