// core -> fair rendering (issue 26): a render holds one of its organisation's slots while it runs, so a
// burst of large PDFs from one organisation takes at most half the renders at once, and every other
// organisation's contracts still start. A render whose organisation holds all its slots does not run:
// its host puts it back in the queue for a while (lambdas/hosts/queue-consumers/render-records.ts), behind everyone else's.
import { log } from '../log';
import type { Clock, RenderSlots } from '../ports';

/** A slot's lease: renewed while the render runs, so a render whose host died frees its slot soon. */
export const RENDER_LEASE_MICROS = 120 * 1e6;
const RENEW_EVERY_MS = 30_000;

/** Of the `rendersAtOnce` an environment runs, how many one organisation may hold: half, at least one. */
export const rendersPerOrganisation = (rendersAtOnce: number): number =>
  Math.max(1, Math.floor(rendersAtOnce / 2));

export type SlotOutcome<T> = { ran: true; value: T } | { ran: false };

/** Runs `work` holding one of the organisation's `limit` render slots, or does not run it when none is free. */
export const withRenderSlot = async <T>(
  ports: { renderSlots: RenderSlots; clock: Clock },
  slot: { organisationId: string; holder: string; limit: number },
  work: () => Promise<T>,
): Promise<SlotOutcome<T>> => {
  const { organisationId, holder, limit } = slot;
  const leaseEnd = () => ports.clock.now() + RENDER_LEASE_MICROS;
  const index = await ports.renderSlots.take(organisationId, holder, limit, leaseEnd());
  if (index === null) return { ran: false };
  const renewal = setInterval(() => {
    ports.renderSlots.renew(organisationId, index, holder, leaseEnd()).then(
      (kept) => {
        // Rendering is idempotent, so the work goes on; the organisation briefly has one more render.
        if (!kept) log.warn('a render lost its slot', { organisation_id: organisationId, slot: index });
      },
      (error: unknown) =>
        log.warn('a render slot could not be renewed', { organisation_id: organisationId, error }),
    );
  }, RENEW_EVERY_MS);
  try {
    return { ran: true, value: await work() };
  } finally {
    clearInterval(renewal);
    // Not given back (the table is away): the lease lapses by itself.
    await ports.renderSlots
      .give(organisationId, index, holder)
      .catch((error: unknown) =>
        log.warn('a render slot could not be given back', { organisation_id: organisationId, error }),
      );
  }
};
