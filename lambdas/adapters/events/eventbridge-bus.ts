// adapter -> the event bus on EventBridge: PutEvents calls of at most 10 entries and 256 KiB (by
// EventBridge's own reckoning of an entry's size), entries it failed sent again, a few times.
import {
  type EventBridgeClient,
  PutEventsCommand,
  type PutEventsRequestEntry,
} from '@aws-sdk/client-eventbridge';
import type { EventBus } from '../../core/ports';
import { batchesWithin } from '../batches';
import { type BusEntry, busEntryOf } from './bus-events';

const MAX_ENTRIES = 10;
const MAX_REQUEST_BYTES = 256 * 1024;
/** Times a failed entry is sent again before the publish fails (and the outbox keeps the event). */
const RESENDS = 3;

/** An entry's size as EventBridge counts it against the request's limit (its Time counts 14 bytes). */
export const entrySize = (entry: BusEntry): number =>
  14 +
  Buffer.byteLength(entry.Source, 'utf8') +
  Buffer.byteLength(entry.DetailType, 'utf8') +
  Buffer.byteLength(entry.Detail, 'utf8');

/** Batches within PutEvents' limits, in order. */
export const entryBatches = (entries: readonly BusEntry[]): BusEntry[][] =>
  batchesWithin(entries, entrySize, { maxItems: MAX_ENTRIES, maxBytes: MAX_REQUEST_BYTES, what: 'an event' });

export const eventBridgeBus = (client: EventBridgeClient, busName: string): EventBus => {
  const putBatch = async (batch: readonly BusEntry[]): Promise<void> => {
    let entries: PutEventsRequestEntry[] = batch.map((entry) => ({ ...entry, EventBusName: busName }));
    for (let attempt = 0; ; attempt++) {
      const result = await client.send(new PutEventsCommand({ Entries: entries }));
      if (!result.FailedEntryCount) return;
      // Results are in the order of the entries; a failed one has an ErrorCode.
      const failed = entries.filter((_, i) => result.Entries?.[i]?.ErrorCode !== undefined);
      if (attempt === RESENDS) {
        const codes = (result.Entries ?? []).flatMap((e) => (e.ErrorCode ? [e.ErrorCode] : []));
        throw new Error(`EventBridge refused ${failed.length} event(s): ${[...new Set(codes)].join(', ')}`);
      }
      entries = failed;
    }
  };
  return {
    publish: async (events) => {
      for (const batch of entryBatches(events.map(busEntryOf))) await putBatch(batch);
    },
  };
};
