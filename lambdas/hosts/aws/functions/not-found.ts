// host -> the function of every other path of the API.
import { notFound } from '../../../api/not-found';
import { kmsTokenVerifier } from '../kms-token-keys';
import { apiLambda } from '../lambda';

export const handler = await apiLambda(notFound, { tokenVerifier: kmsTokenVerifier });
