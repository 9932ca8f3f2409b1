// workers -> deployed, the re-drive of recorded runs, on a schedule: a run whose start was lost (the
// accepting request's StartExecution failed after its transaction) or that was only recorded (a review
// published by the operator tool) is started. Step Functions names each execution after its run, so a
// run already started or finished is refused by Step Functions itself and nothing runs twice. Pending
// webhook deliveries are handed to the delivery queue again only when overdue
// (lambdas/core/webhooks/delivery.ts): a queue has no names to refuse a second copy by, so a delivery
// still in the queue is left to it. It also says how many contract runs broke the viewer's 20-minute
// promise (core/contracts/publication-promise.ts), the line the stage's alarm counts (lib/operations.ts).
import { brokenPublicationPromises, PUBLICATION_CHECK_LINE } from '../core/contracts/publication-promise';
import { log } from '../core/log';
import type { Micros } from '../core/model';
import { type Ports, runName, type WorkflowRun } from '../core/ports';
import { redriveDeliveries } from '../core/webhooks/delivery';

/**
 * How long a delivery is due and unheld before the re-drive takes it for lost: well past what the
 * delivery queue's backlog should ever hold it back (a copy is harmless, only wasted work).
 */
export const DELIVERY_OVERDUE_MICROS: Micros = 5 * 60 * 1_000_000;

/**
 * Starts every unfinished workflow run (oldest first, `limit` at a time), says how many of the contract
 * runs among them are past their promise, and hands on the overdue ones among every pending delivery
 * (`limit` at a time); resolves with how many of each were looked at.
 */
export const redriveRuns = async (
  ports: Pick<
    Ports,
    'clock' | 'contractReviews' | 'deliveryQueue' | 'runs' | 'webhookMessages' | 'workflows'
  >,
  limit = 100,
): Promise<{ workflows: number; deliveries: number }> => {
  // Every unfinished run, a page at a time: runs that keep failing, or wait days for a lawyer, are the
  // oldest and would otherwise fill every re-drive and starve the newer ones.
  let workflows = 0;
  const late: WorkflowRun[] = [];
  for await (const runs of ports.runs.eachUnfinished(limit)) {
    for (const run of runs) await ports.workflows.start(run);
    late.push(...(await brokenPublicationPromises(ports.contractReviews, runs, ports.clock.now())));
    workflows += runs.length;
  }
  // Every re-drive, 0 included, so the alarm's metric has a value each period.
  log.info(PUBLICATION_CHECK_LINE, { late: late.length, runs: late.slice(0, 10).map(runName) });
  let deliveries = 0;
  for (let page = await ports.webhookMessages.pendingDeliveries(limit); page.length > 0; ) {
    deliveries += page.length;
    await redriveDeliveries(ports, page, DELIVERY_OVERDUE_MICROS);
    page = page.length < limit ? [] : await ports.webhookMessages.pendingDeliveries(limit, page.at(-1));
  }
  return { workflows, deliveries };
};
