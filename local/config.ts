// local -> the local stack's settings (decisions.md §9), read once from the environment and validated.
import path from 'node:path';
import * as z from 'zod/mini';
import type { ScryptCost } from '../lambdas/core/people/password-hash';

const LocalConfigSchema = z.object({
  PORT_BASE: z._default(z.coerce.number().check(z.int(), z.gte(1024), z.lte(65_000)), 3000),
  DATA_DIR: z._default(z.string().check(z.minLength(1)), '.data'),
  DELAY_SCALE: z._default(z.coerce.number().check(z.positive()), 1),
  RATE_LIMITS: z._default(z.enum(['on', 'off']), 'on'),
  RATE_REFILL_SCALE: z._default(z.coerce.number().check(z.positive()), 1),
  REQUEST_HISTORY: z._default(z.enum(['on', 'off']), 'on'),
});

export interface LocalConfig {
  portBase: number;
  dataDir: string;
  delayScale: number;
  rateLimits: boolean;
  /**
   * `RATE_REFILL_SCALE`: divides the API's rate limits' refill rates, their bursts unchanged, so that a
   * test can count a burst exactly (no token comes back while it sends).
   */
  rateRefillScale: number;
  /** `REQUEST_HISTORY=off` records no request history: for the bench, which measures what recording costs. */
  requestHistory: boolean;
}

export const readLocalConfig = (env: NodeJS.ProcessEnv = process.env): LocalConfig => {
  const parsed = LocalConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .map((issue) => `${issue.path.join('.')}: ${issue.message}`)
      .join('; ');
    throw new Error(`invalid local stack settings: ${problems}`);
  }
  const { PORT_BASE, DATA_DIR, DELAY_SCALE, RATE_LIMITS, RATE_REFILL_SCALE, REQUEST_HISTORY } = parsed.data;
  return {
    portBase: PORT_BASE,
    dataDir: path.resolve(DATA_DIR),
    delayScale: DELAY_SCALE,
    rateLimits: RATE_LIMITS === 'on',
    rateRefillScale: RATE_REFILL_SCALE,
    requestHistory: REQUEST_HISTORY === 'on',
  };
};

/**
 * The scrypt cost of passwords hashed on the local stack (sign-ups, dev-bootstrap's people), set here and
 * never from the environment: local passwords are published (dev-bootstrap.ts), so slow hashes protect
 * nothing, and at the service's cost (SCRYPT_COST, 128 MiB and ~0.35 s a hash) the test suite spent a
 * second of a loaded machine on each of its ~50 sign-ins and sign-ups per browser run. The deployed
 * composition sets no cost (test/unit/people.test.ts). The lowest cost verifyPassword accepts.
 */
export const LOCAL_PASSWORD_COST: Readonly<ScryptCost> = { logN: 10, r: 8, p: 1 };

/** Port offsets from PORT_BASE (decisions.md §9), and the two embedded stores after them. */
export const PORT_OFFSETS = {
  productionApi: 0,
  sandboxApi: 1,
  productionFrame: 2,
  sandboxFrame: 3,
  productionPages: 4,
  sandboxPages: 5,
  portal: 6,
  identityProvider: 7,
  backOffice: 8,
  dynamoDb: 10,
  blobStore: 11,
} as const;

export const localUrl = (config: LocalConfig, offset: number): string =>
  `http://127.0.0.1:${config.portBase + offset}`;
