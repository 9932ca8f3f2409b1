// adapters -> the event bus's rules, one table for CDK (the deployed bus's rules) and for the local
// bus, which routes by the same patterns. The local matcher knows EventBridge's exact-value subset
// (arrays of values, nested fields) and refuses any other operator, so that a rule added here cannot
// route differently in the two places without a failing test.
import { EVENT_TYPES } from '../../core/events';
import { EVENT_SOURCE } from './bus-events';

export type EventPattern = {
  [field: string]: ReadonlyArray<string | number | boolean | null> | EventPattern;
};

export interface BusRule {
  /** Names the rule and the queue it feeds. */
  name: string;
  pattern: EventPattern;
}

export const BUS_RULES: readonly BusRule[] = [
  // Every event the interface announces goes to the webhook fan-out.
  { name: 'webhook-fan-out', pattern: { source: [EVENT_SOURCE], 'detail-type': [...EVENT_TYPES] } },
];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `event` (as the bus delivers it) matches `pattern`, for patterns of exact values only. */
export const matchesPattern = (event: unknown, pattern: EventPattern): boolean =>
  Object.entries(pattern).every(([field, expected]) => {
    const actual = isObject(event) ? event[field] : undefined;
    if (!Array.isArray(expected))
      return isObject(expected) && matchesPattern(actual, expected as EventPattern);
    for (const value of expected)
      if (typeof value === 'object' && value !== null)
        throw new Error(`the local bus matches exact values only, not ${JSON.stringify(value)}`);
    const values = Array.isArray(actual) ? actual : [actual];
    return values.some((value) => expected.includes(value as string | number | boolean | null));
  });
