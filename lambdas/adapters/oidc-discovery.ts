// adapter -> an OpenID Connect confidential client's view of its provider (openid-client): the provider's
// metadata, discovered on first use and kept, a failed discovery (the provider not up yet) tried again
// on the next use. Shared by the portal's sign-in and the identity provider's upstream sign-in.
import * as oidc from 'openid-client';

export interface ConfidentialClient {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** Plain http is allowed to this machine only (the local stack's provider, a test's stand-in). */
const isLoopbackHttp = (url: URL): boolean =>
  url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);

/** The provider's configuration for `client`, discovered once (and again after a failure). */
export const cachedDiscovery = (client: ConfidentialClient): (() => Promise<oidc.Configuration>) => {
  let configuration: Promise<oidc.Configuration> | undefined;
  const discover = () => {
    const issuer = new URL(client.issuer);
    const options = isLoopbackHttp(issuer) ? { execute: [oidc.allowInsecureRequests] } : undefined;
    return oidc.discovery(
      issuer,
      client.clientId,
      undefined,
      oidc.ClientSecretBasic(client.clientSecret),
      options,
    );
  };
  return () => {
    configuration ??= discover().catch((error: unknown) => {
      configuration = undefined;
      throw error;
    });
    return configuration;
  };
};
