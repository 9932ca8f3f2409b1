// identity provider -> registration is open (MCP clients register themselves), so it is rate limited per
// client address: 30 clients at once, then one every two minutes, over which `/reg` answers 429 with
// `Retry-After` and an OAuth-shaped error body. An agent registers once per installation, not in bulk.
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { PeopleServices } from '../core/people/accounts';
import { clientAddress } from './form-requests';

const REGISTRATION_BURST = 30;
const REGISTRATIONS_PER_SECOND = 1 / 120;

/** Koa middleware in front of oidc-provider's registration endpoint at `path`. */
export const limitingRegistration =
  (path: string, limits: Pick<PeopleServices, 'rateLimiter' | 'rateLimits'>, behindProxy: boolean) =>
  async (ctx: KoaContextWithOIDC, next: () => Promise<unknown>): Promise<void> => {
    if (ctx.method !== 'POST' || ctx.path !== path || !limits.rateLimits) return void (await next());
    const from = clientAddress(ctx.req, behindProxy);
    const take = await limits.rateLimiter.take(
      `registration#${from}`,
      REGISTRATIONS_PER_SECOND,
      REGISTRATION_BURST,
    );
    if (take.allowed) return void (await next());
    const minutes = Math.ceil(take.retryAfterSeconds / 60);
    ctx.status = 429;
    ctx.set({ 'Retry-After': String(take.retryAfterSeconds), 'Cache-Control': 'no-store' });
    ctx.body = {
      error: 'rate_limited',
      error_description: `Too many clients were registered from your network just now. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    };
  };
