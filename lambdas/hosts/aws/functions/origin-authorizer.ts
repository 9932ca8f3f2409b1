// host -> an HTTP API's origin authorizer (lib/origin-protection.ts): admits the requests CloudFront sends
// with the origin secret, checked as the ingest service checks it, the secret's values read once per
// instance and again every few minutes.
import * as z from 'zod/mini';
import { sdkOriginSecret } from '../../../adapters/origin-secret-ports';
import { acceptedValues } from '../../../core/origin-secret-ports';
import {
  authorizeOrigin,
  type OriginAuthorizerAnswer,
  type OriginAuthorizerEvent,
} from '../../origin-authorizer';
import { originVerifier } from '../../origin-verify';
import { builtOnFirstUse } from '../built-on-first-use';

const Config = z.object({
  ORIGIN_VERIFY_SECRET_ARN: z.string().check(z.minLength(1)),
  ORIGIN_VERIFY_HEADER: z.string().check(z.minLength(1)),
  AWS_REGION: z.string().check(z.minLength(1)),
});

const ready = builtOnFirstUse(async () => {
  const config = Config.parse(process.env);
  const secret = await sdkOriginSecret(config.ORIGIN_VERIFY_SECRET_ARN, config.AWS_REGION);
  const verifier = originVerifier({ read: () => acceptedValues(secret), now: () => performance.now() });
  await verifier.start();
  return { verifier, header: config.ORIGIN_VERIFY_HEADER };
});

export const handler = async (event: OriginAuthorizerEvent): Promise<OriginAuthorizerAnswer> => {
  const { verifier, header } = await ready();
  return authorizeOrigin(verifier, header, event);
};
