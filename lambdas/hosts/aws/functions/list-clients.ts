// host -> the function of GET /v1/clients.
import { listClients } from '../../../api/list-clients';
import { kmsTokenVerifier } from '../kms-token-keys';
import { apiLambda } from '../lambda';

export const handler = await apiLambda(listClients, { tokenVerifier: kmsTokenVerifier });
