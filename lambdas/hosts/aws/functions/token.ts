// host -> the function of POST /v1/token.
import { token } from '../../../api/token';
import { kmsTokenIssuer } from '../kms-token-keys';
import { apiLambda } from '../lambda';

export const handler = await apiLambda(token, { tokenIssuer: kmsTokenIssuer });
