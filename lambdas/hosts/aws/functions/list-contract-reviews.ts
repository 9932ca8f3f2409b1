// host -> the function of GET /v1/contract-reviews.
import { listContractReviews } from '../../../api/list-contract-reviews';
import { kmsTokenVerifier } from '../kms-token-keys';
import { apiLambda } from '../lambda';

export const handler = await apiLambda(listContractReviews, { tokenVerifier: kmsTokenVerifier });
