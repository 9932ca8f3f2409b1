// host -> the function of GET /v1/contract-reviews/{id}.
import { getContractReview } from '../../../api/get-contract-review';
import { kmsTokenVerifier } from '../kms-token-keys';
import { apiLambda } from '../lambda';

export const handler = await apiLambda(getContractReview, { tokenVerifier: kmsTokenVerifier });
