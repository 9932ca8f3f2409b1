// identity provider -> oidc-provider configured as the service's OpenID Connect authorization server
// (decisions.md §10): the authorization code flow only, PKCE with S256 required of every client, dynamic
// client registration (open, as MCP clients need) and client ID metadata documents, resource indicators
// for the two MCP servers with JWT access tokens whose audience is exactly the server's address,
// discovery, refresh tokens, revocation, and the service's own pages for everything a person sees
// (oidc-provider's development pages are off).
import Provider, { type Configuration, type errors, type KoaContextWithOIDC } from 'oidc-provider';
import { isPersonId } from '../core/ids';
import { log } from '../core/log';
import { authorizationErrorPage, showErrorsOfUntrustedClientsHere } from './authorization-errors';
import { CHECKED_METADATA, clientMetadataRules, OWN_CLIENT_NAMES } from './client-policy';
import { loadExistingGrant } from './grants';
import { guardedFetch } from './guarded-fetch';
import { renderNotice, renderSignOut } from './pages/notices';
import { securingAnswers } from './provider-answers';
import { limitingRegistration } from './registration-limit';
import { grantedEnvironments, implyResourceScope, MCP_SCOPE, resourceServerInfo } from './resources';
import type { FirstPartyClient, IdentityProviderServices, IdentityProviderSettings } from './settings';

const MINUTE = 60;
const DAY = 24 * 60 * MINUTE;

/** How long each artefact lives, in seconds. */
export const LIFETIMES = {
  /** A person's sign-in in this browser. */
  Session: 14 * DAY,
  /** One sign-in or consent in progress. */
  Interaction: 30 * MINUTE,
  /** What a person let a client do: asked again after a year. */
  Grant: 365 * DAY,
  AuthorizationCode: MINUTE,
  /** Access tokens without a resource (the portal's, for /me); an MCP server's are its own (resources.ts). */
  AccessToken: 15 * MINUTE,
  IdToken: 15 * MINUTE,
  /** Renewed at each rotation: an unused connection lapses after 30 days; the grant bounds the rest. */
  RefreshToken: 30 * DAY,
} as const;

/** The cookies, named apart from the other services on the same host (cookies ignore the port). */
const COOKIE_NAMES = { session: 'idp_session', interaction: 'idp_interaction', resume: 'idp_resume' };

/** The service's own clients: the portal, and the back office where one is served. */
const firstPartyClients = (settings: IdentityProviderSettings): FirstPartyClient[] => [
  settings.portal,
  ...(settings.backOffice ? [settings.backOffice] : []),
];

const configuration = (
  settings: IdentityProviderSettings,
  services: IdentityProviderServices,
): Configuration => {
  const ownClients = firstPartyClients(settings);
  const firstParty = new Set(ownClients.map((client) => client.clientId));
  const cookie = { httpOnly: true, sameSite: 'lax', signed: true } as const;
  return {
    adapter: services.storage,
    clients: ownClients.map((client) => ({
      client_id: client.clientId,
      client_name: client.clientName,
      client_secret: client.clientSecret,
      redirect_uris: [...client.redirectUris],
      post_logout_redirect_uris: [...client.postLogoutRedirectUris],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    findAccount: async (_ctx, sub) => {
      const person = isPersonId(sub) ? await services.people.people.get(sub) : null;
      if (!person) return undefined;
      return {
        accountId: person.id,
        // Nothing here proves a person holds their email; an upstream sign-in (Cognito) can, deployed.
        claims: async () => ({ sub: person.id, email: person.email, email_verified: false }),
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // `mcp` too: MCP clients (the SDK's among them) register with the scope the server's challenge and
    // metadata name, and oidc-provider refuses a client's scope it does not list (invalid_client_metadata).
    // It means nothing without a resource; with one, implyResourceScope asks for it anyway.
    scopes: ['openid', 'offline_access', 'email', MCP_SCOPE],
    responseTypes: ['code'],
    pkce: { required: () => true },
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    // OAuth 2.1 and the MCP specification: the redirect address is always named.
    allowOmittingSingleRegisteredRedirectUri: false,
    extraParams: { resource: implyResourceScope(settings.mcpResources) },
    // Not extra metadata: the standard redirect properties and name, put through the service's rules too.
    extraClientMetadata: {
      properties: [...CHECKED_METADATA],
      validator: clientMetadataRules(firstParty, [
        ...OWN_CLIENT_NAMES,
        ...ownClients.map((client) => client.clientName),
      ]),
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      // MCP clients may also name themselves by an https address serving their metadata (the MCP
      // authorization specification's client ID metadata documents, draft-02 as oidc-provider 9 has it):
      // fetched through guardedFetch (public https addresses only), cached by its Cache-Control.
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
      resourceIndicators: {
        enabled: true,
        getResourceServerInfo: resourceServerInfo(settings.mcpResources),
        defaultResource: async (_ctx, _client, oneOf) => oneOf,
        // A client that asked for one MCP server gets its token without naming it again.
        useGrantedResource: async () => true,
      },
      // A client revokes its own tokens only (revoking a refresh token revokes its grant with it).
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      userinfo: { enabled: true },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          const formId = /id="([^"]+)"/.exec(form)?.[1] ?? 'op.logoutForm';
          ctx.type = 'html';
          ctx.body = renderSignOut(form, formId);
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.type = 'html';
          ctx.body = renderNotice('Signed out', 'You are signed out. You can close this page.');
        },
      },
      // Not used by the portal or MCP clients: off, so they are no part of what can be attacked.
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
    },
    // Everything fetched from an address a client names goes through the SSRF guard.
    fetch: guardedFetch(),
    loadExistingGrant: loadExistingGrant(firstParty, services.grants),
    // An MCP server's JWT access token names its grant, so the server can refuse it at once when the
    // person revokes the client (the grant is deleted; oidc-provider keeps no record of JWT tokens), and
    // the environments the grant lets the client change, which the server's tools hold it to.
    formats: {
      customizers: {
        jwt: async (ctx, token, parts) => {
          if (!('grantId' in token) || !token.grantId) return;
          parts.payload.grant_id = token.grantId;
          const grant = ctx.oidc.entities.Grant ?? (await ctx.oidc.provider.Grant.find(token.grantId));
          parts.payload.environments = grantedEnvironments(grant);
        },
      },
    },
    // Refresh tokens for any client registered for them; MCP clients renew their 15-minute tokens so.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // The portal's tokens end with the person's sign-in here; an MCP client's live on until they lapse or
    // the person revokes the grant, whether or not the person stays signed in in this browser.
    // (Asked of the authorization code, whose expiry its tokens inherit.)
    expiresWithSession: async (ctx, code) =>
      firstParty.has(ctx.oidc.client?.clientId ?? '') && !code.scopes.has('offline_access'),
    // Browser-based public clients may call the token endpoint from the origin of a redirect address.
    clientBasedCORS: (_ctx, origin, client) =>
      client.clientAuthMethod === 'none' &&
      (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin),
    ttl: {
      ...LIFETIMES,
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? LIFETIMES.AccessToken,
    },
    cookies: {
      names: COOKIE_NAMES,
      long: cookie,
      short: cookie,
      keys: [...settings.cookieKeys],
    },
    jwks: { keys: [...settings.signingKeys] },
    interactions: { url: async (_ctx, interaction) => `/interaction/${interaction.uid}` },
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      ctx.body = authorizationErrorPage(out);
    },
  };
};

export const createIdentityProvider = (
  settings: IdentityProviderSettings,
  services: IdentityProviderServices,
): Provider => {
  const provider = new Provider(settings.issuer, configuration(settings, services));
  provider.proxy = settings.behindProxy;
  provider.use(securingAnswers);
  provider.use(limitingRegistration(provider.pathFor('registration'), services.people, settings.behindProxy));
  showErrorsOfUntrustedClientsHere(
    provider,
    new Set(firstPartyClients(settings).map((client) => client.clientId)),
    services.grants,
  );
  provider.on('server_error', (_ctx: KoaContextWithOIDC, error: Error) =>
    log.error('identity provider fault', { error }),
  );
  // Refusals of a client's request (a bad grant, an unknown client), by their OAuth error only.
  const refused = (endpoint: string) => (_ctx: KoaContextWithOIDC, error: errors.OIDCProviderError) =>
    log.info('identity provider refused a request', {
      endpoint,
      error: error.error,
      description: error.error_description,
    });
  provider.on('authorization.error', refused('authorization'));
  provider.on('grant.error', refused('token'));
  provider.on('registration_create.error', refused('registration'));
  provider.on('revocation.error', refused('revocation'));
  provider.on('userinfo.error', refused('userinfo'));
  provider.on('end_session.error', refused('end_session'));
  return provider;
};
