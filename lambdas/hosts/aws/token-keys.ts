// host -> the access-token keys a deployed host is wired with: the KMS key's (kms-token-keys.ts) for the
// hosts that issue or check /v1 tokens, none for every other host.
import type { PortsWiring } from '../../adapters/compose';

export type TokenKeys = Pick<PortsWiring, 'tokenSigner' | 'tokenPublicKey'>;

/** The keys of a host that checks no access token: a call is a fault of its wiring. */
export const noTokenKeys = (): TokenKeys => ({
  tokenSigner: async () => {
    throw new Error('this host is not wired with the token keys: it issues no access token');
  },
  tokenPublicKey: async () => {
    throw new Error('this host is not wired with the token keys: it checks no access token');
  },
});
