// local -> the local stack's event bus: each event published is shaped as EventBridge delivers it
// to an SQS target and sent to the queue of every rule (bus-rules.ts) that matches it, the same table
// CDK gives the deployed bus.
import { randomUUID } from 'node:crypto';
import { type BusEntry, busEntryOf } from '../../lambdas/adapters/events/bus-events';
import { BUS_RULES, type BusRule, matchesPattern } from '../../lambdas/adapters/events/bus-rules';
import type { EventBus, WorkQueue } from '../../lambdas/core/ports';

export const LOCAL_ACCOUNT = '000000000000';

/** An event as EventBridge hands it to a target: the entry's fields, `detail` parsed. */
const delivered = (entry: BusEntry, region: string) => ({
  version: '0',
  id: randomUUID(),
  'detail-type': entry.DetailType,
  source: entry.Source,
  account: LOCAL_ACCOUNT,
  time: `${entry.Time.toISOString().slice(0, 19)}Z`,
  region,
  resources: [],
  detail: JSON.parse(entry.Detail) as unknown,
});

export const localEventBus = (
  targets: Readonly<Record<string, WorkQueue>>,
  region: string,
  rules: readonly BusRule[] = BUS_RULES,
): EventBus => {
  for (const rule of rules)
    if (targets[rule.name] === undefined) throw new Error(`no queue for the bus rule ${rule.name}`);
  return {
    publish: async (events) => {
      const outgoing = new Map<string, string[]>();
      for (const event of events) {
        const body = delivered(busEntryOf(event), region);
        for (const rule of rules) {
          if (!matchesPattern(body, rule.pattern)) continue;
          const bodies = outgoing.get(rule.name) ?? [];
          bodies.push(JSON.stringify(body));
          outgoing.set(rule.name, bodies);
        }
      }
      await Promise.all(
        [...outgoing].map(([name, bodies]) =>
          (targets[name] as WorkQueue).send(bodies.map((body) => ({ body }))),
        ),
      );
    },
  };
};
