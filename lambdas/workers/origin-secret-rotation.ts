// workers -> the rotation of the origin secret (deployed only; Secrets Manager calls it every 30 days,
// lib/upload-ingest.ts): the four steps Secrets Manager asks of a rotation function, each safe to repeat.
//   createSecret: a new random value, labelled pending.
//   setSecret: the listener rule admits the current AND the pending value, then CloudFront's origin
//     header is set to the pending one (the ingest tasks already accept a pending value).
//   testSecret: CloudFront sends the pending value and that configuration is deployed everywhere.
//   finishSecret: the pending value becomes current, and the rule admits it alone.
// Narrowing the rule at the end: once the distribution is deployed no edge sends the old value, and a
// request already forwarded is past the rule, so keeping it would only leave a replaced (perhaps leaked)
// value opening the load balancer for another 30 days. The tasks keep accepting it (a second lock).
// A secret that only origin authorizers check (lib/origin-protection.ts) has no rule: they accept the
// current, pending and previous values, so the steps are the same less the rule's.
// Its ports over the AWS SDK are adapters/origin-secret-ports.ts; its Lambda's entry is
// hosts/aws/functions/rotate-origin-secret.ts.
import * as z from 'zod/mini';
import { log } from '../core/log';
import { type RotationPorts, SECRET_STAGES } from '../core/origin-secret-ports';

export const ROTATION_STEPS = ['createSecret', 'setSecret', 'testSecret', 'finishSecret'] as const;

/** The event Secrets Manager sends for each step. */
const RotationEvent = z.object({
  Step: z.enum(ROTATION_STEPS),
  SecretId: z.string(),
  ClientRequestToken: z.string().check(z.minLength(1)),
});

/** How often, and how many times, testSecret checks the distribution before failing (about 10 minutes). */
export const DEPLOYED_CHECK_MS = 15_000;
export const DEPLOYED_CHECKS = 40;

/** A step Secrets Manager retries: the rotation cannot go on yet, or something changed under it. */
export class RotationNotReady extends Error {
  override readonly name = 'RotationNotReady';
}

const required = (value: string | null, what: string): string => {
  if (value === null) throw new Error(`the origin secret has no ${what} value`);
  return value;
};

/** Runs one step of a rotation of the origin secret. */
export const rotateOriginSecret = async (event: unknown, ports: RotationPorts): Promise<void> => {
  const { Step, SecretId, ClientRequestToken: token } = RotationEvent.parse(event);
  // The function's role reaches this secret only; any other would fail half way.
  if (SecretId !== ports.secret.arn) throw new Error(`asked to rotate ${SecretId}, not the origin secret`);
  const { rotationEnabled, stages } = await ports.secret.versions();
  if (!rotationEnabled) throw new Error('rotation is not enabled on the origin secret');
  const labels = stages[token];
  if (!labels) throw new Error(`version ${token} is not a version of the origin secret`);
  if (Step === 'finishSecret') return finishSecret(ports, token, stages);
  if (labels.includes(SECRET_STAGES.current)) {
    log.info('origin secret version already current', { step: Step, version: token });
    return;
  }
  if (!labels.includes(SECRET_STAGES.pending))
    throw new Error(`version ${token} of the origin secret is not pending`);
  const { secret, rule, distribution } = ports;
  switch (Step) {
    case 'createSecret': {
      required(await secret.value(SECRET_STAGES.current), 'current');
      if ((await secret.value(SECRET_STAGES.pending, token)) !== null) return;
      await secret.putPending(token, await secret.randomValue());
      return;
    }
    case 'setSecret': {
      const [current, pending] = await Promise.all([
        secret.value(SECRET_STAGES.current).then((value) => required(value, 'current')),
        secret.value(SECRET_STAGES.pending, token).then((value) => required(value, 'pending')),
      ]);
      // The rule first: CloudFront's edges start sending the pending value as soon as it is changed.
      await rule?.accept([current, pending]);
      await distribution.send(pending);
      return;
    }
    case 'testSecret': {
      const pending = required(await secret.value(SECRET_STAGES.pending, token), 'pending');
      for (let check = 1; ; check++) {
        const sent = await distribution.sent();
        // A deployment resolves the header to the current value again: setSecret must run again.
        if (sent.value !== pending)
          throw new RotationNotReady('CloudFront does not send the pending value (changed since setSecret)');
        if (sent.deployed) return;
        if (check >= DEPLOYED_CHECKS)
          throw new RotationNotReady('CloudFront has not yet deployed the pending value');
        await ports.pause(DEPLOYED_CHECK_MS);
      }
    }
  }
};

/** Makes `token` current (unless it already is), then narrows the rule to its value. */
const finishSecret = async (
  { secret, rule }: RotationPorts,
  token: string,
  stages: Readonly<Record<string, readonly string[]>>,
): Promise<void> => {
  const current = Object.keys(stages).find((id) => stages[id]?.includes(SECRET_STAGES.current));
  if (current !== token) {
    if (!stages[token]?.includes(SECRET_STAGES.pending))
      throw new Error(`version ${token} of the origin secret is neither pending nor current`);
    if (!current) throw new Error('the origin secret has no current version');
    await secret.makeCurrent(token, current);
  }
  // Repeated when the version is already current: a finish that failed after moving the label.
  await rule?.accept([required(await secret.value(SECRET_STAGES.current, token), 'current')]);
};
