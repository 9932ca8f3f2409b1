// adapters -> splitting what is sent to an AWS batch API (SQS SendMessageBatch, EventBridge PutEvents)
// into calls within its limits: at most so many entries and so many bytes a call, in order.

export interface BatchLimits {
  maxItems: number;
  maxBytes: number;
  /** Names an item in the error for one too large to send at all. */
  what: string;
}

export const batchesWithin = <T>(
  items: readonly T[],
  sizeOf: (item: T) => number,
  { maxItems, maxBytes, what }: BatchLimits,
): T[][] => {
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (size > maxBytes) throw new Error(`${what} of ${size} bytes is over the limit of ${maxBytes}`);
    if (current.length === maxItems || bytes + size > maxBytes) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
};
