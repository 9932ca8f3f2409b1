// host -> the credentials of a deployed function: Lambda puts its execution role's credentials in the
// environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN) before the code loads, so the
// deployed bundles alias the SDK's default chain (@aws-sdk/credential-provider-node: SSO, ini files,
// processes, web identity, the container and instance metadata, with the STS and SSO clients they
// carry) to this one link of it (lib/service-function.ts BUNDLE_SETTINGS). Tests and the operator tool
// keep the full chain.
import { type FromEnvInit, fromEnv } from '@aws-sdk/credential-provider-env';

/** The SDK clients' default credentials, as the default chain's first link: the environment's. */
export const defaultProvider = (init: FromEnvInit = {}) => fromEnv(init);
