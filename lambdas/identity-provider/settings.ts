// identity provider -> what a host gives it: its issuer, the resources it issues tokens for, the
// service's own clients (the portal, the back office), its keys, and the stores it keeps state in.
import type { AdapterFactory, JWK } from 'oidc-provider';
import type { PeopleServices } from '../core/people/accounts';
import type { ClientGrants } from '../core/ports';
import type { McpResource } from './resources';
import type { UpstreamSettings } from './upstream';

/** A client of the service itself: registered statically, confidential, never asked for consent. */
export interface FirstPartyClient {
  clientId: string;
  clientName: string;
  clientSecret: string;
  redirectUris: readonly string[];
  postLogoutRedirectUris: readonly string[];
}

export interface IdentityProviderSettings {
  /** `http://127.0.0.1:{PORT_BASE+7}` locally; the provider's own https address deployed. */
  issuer: string;
  mcpResources: readonly McpResource[];
  portal: FirstPartyClient;
  /** The back office's client, where the host serves one (the local stack, offset 8). */
  backOffice?: FirstPartyClient;
  /** The private signing keys (JWKS), the signing one first; the public halves are served at /jwks. */
  signingKeys: readonly JWK[];
  /** Keys that sign its cookies, the current one first. */
  cookieKeys: readonly string[];
  /** Behind a TLS-terminating proxy (deployed): trust `X-Forwarded-Proto` and mark cookies Secure. */
  behindProxy: boolean;
  /**
   * Where people sign in (deployed: the Cognito user pool); none: the provider's own password pages
   * (the local stack).
   */
  upstream?: UpstreamSettings;
}

/** What it keeps and reads: its own state, the people, their grants. */
export interface IdentityProviderServices {
  /** oidc-provider's storage: sessions, interactions, grants, codes, tokens, registered clients. */
  storage: AdapterFactory;
  grants: ClientGrants;
  people: PeopleServices;
}
