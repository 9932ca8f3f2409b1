// bin/ops -> `listen --forward-to URL`: every event of an environment's integration delivered, signed, to a
// local address while the command runs (as `stripe listen` does). It registers an ordinary webhook
// endpoint, so deliveries are the service's own (the same signatures, retries and log); it prints the
// endpoint's secret for the receiver to verify with, a line per message as its state changes, and on
// Ctrl-C deletes the endpoint.
import { parseArgs } from 'node:util';
import { ActionRefused } from '../../lambdas/core/errors';
import { EVENT_TYPES } from '../../lambdas/core/events';
import type { Environment } from '../../lambdas/core/model';
import type { Directory } from '../../lambdas/core/organisations';
import { createWebhookEndpoint, deleteWebhookEndpoint } from '../../lambdas/core/webhooks/endpoints';
import { presentWebhookMessage } from '../../lambdas/core/webhooks/messages';
import type { WebhookMessage } from '../../lambdas/core/webhooks/model';
import { type EnvironmentServices, readEnvironment, scopeOf } from './scope';

export const LISTEN_USAGE = `  listen --environment E --forward-to URL [--events a,b] [--integration I]
                                        deliver every event (or those named) to URL until Ctrl-C: prints the
                                        signing secret, then a JSON line per message as its state changes`;

/** How often the messages are looked at: often enough to follow deliveries as they happen. */
const POLL_MS = 500;

export const runListenCommand = async (
  argv: string[],
  services: Record<Environment, EnvironmentServices>,
  directory: Directory,
  print: (line: unknown) => void,
  stopped: Promise<string>,
) => {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      environment: { type: 'string' },
      'forward-to': { type: 'string' },
      events: { type: 'string' },
      integration: { type: 'string' },
    },
  });
  if (positionals.length > 0) throw new ActionRefused(`unexpected ${positionals.join(' ')}`);
  const url = values['forward-to'];
  if (!url)
    throw new ActionRefused(
      '--forward-to is required: the address to deliver to, such as http://127.0.0.1:4000/webhooks',
    );
  const environment = readEnvironment(values.environment, services);
  const { ports, settings } = services[environment];
  const scope = await scopeOf(directory, environment, values.integration);
  const events =
    values.events === undefined ? [...EVENT_TYPES] : values.events.split(',').map((e) => e.trim());
  const { endpoint, secret } = await createWebhookEndpoint(
    ports,
    scope,
    { url, events },
    { allowLoopbackHttp: settings.allowLoopbackWebhooks },
  );
  print({ listening: true, environment, endpoint_id: endpoint.id, url: endpoint.url, events, secret });
  const seen = new Map<string, string>();
  const changed = (message: WebhookMessage) => `${message.state}/${message.round}/${message.attemptsInRound}`;
  let stopping = false;
  const reason = stopped.then((signal) => {
    stopping = true;
    return signal;
  });
  try {
    while (!stopping) {
      const { items } = await ports.webhookMessages.listByEndpoint(endpoint.id, { limit: 100 });
      for (const message of [...items].reverse()) {
        if (seen.get(message.id) === changed(message)) continue;
        seen.set(message.id, changed(message));
        print(presentWebhookMessage(message));
      }
      await Promise.race([reason, new Promise((resolve) => setTimeout(resolve, POLL_MS))]);
    }
  } finally {
    await deleteWebhookEndpoint(ports, scope, endpoint.id);
  }
  return { listening: false, signal: await reason, endpoint_id: endpoint.id, deleted: true };
};
