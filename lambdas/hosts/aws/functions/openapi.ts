// host -> the function of GET /v1/openapi.json.
import { openapi } from '../../../api/openapi';
import { apiLambda } from '../lambda';

export const handler = await apiLambda(openapi);
