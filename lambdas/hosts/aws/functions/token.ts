// host -> the function of POST /v1/token.
import { token } from '../../../api/token';
import { apiLambda } from '../lambda';

export const handler = await apiLambda(token);
