// host -> the function of GET /v1/clients/{id}.
import { getClient } from '../../../api/get-client';
import { kmsTokenVerifier } from '../kms-token-keys';
import { apiLambda } from '../lambda';

export const handler = await apiLambda(getClient, { tokenVerifier: kmsTokenVerifier });
