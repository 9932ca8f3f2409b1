// identity provider -> its HTTP listener: the pages of a sign-in in progress (`/interaction/…`), and
// everything else (discovery, JWKS, authorization, token, registration, userinfo, revocation, sign-out)
// to oidc-provider itself.
import type { RequestListener } from 'node:http';
import type Provider from 'oidc-provider';
import type { PeopleServices } from '../core/people/accounts';
import { interactionPages } from './interactions';
import type { IdentityProviderSettings } from './settings';

export const identityProviderListener = (
  provider: Provider,
  people: PeopleServices,
  settings: IdentityProviderSettings,
): RequestListener => {
  const pages = interactionPages(provider, people, {
    origin: new URL(settings.issuer).origin,
    mcpResources: settings.mcpResources,
    behindProxy: settings.behindProxy,
    ...(settings.upstream && { upstream: settings.upstream }),
  });
  const oidc = provider.callback();
  return (request, response) => {
    if (request.url?.startsWith('/interaction/')) void pages(request, response);
    else void oidc(request, response);
  };
};
