// host -> the function of the identity provider (every path of its own address).
import { awsIdentityProvider } from '../identity-provider-services';
import { listenerLambda } from '../listener-lambda';

const issuer = process.env.IDENTITY_ISSUER;
if (!issuer) throw new Error('IDENTITY_ISSUER is not set');

export const handler = listenerLambda(awsIdentityProvider, issuer);
