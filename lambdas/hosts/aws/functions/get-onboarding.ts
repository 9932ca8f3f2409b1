// host -> the function of GET /v1/clients/onboardings/{id}.
import { getOnboarding } from '../../../api/get-onboarding';
import { kmsTokenVerifier } from '../kms-token-keys';
import { apiLambda } from '../lambda';

export const handler = await apiLambda(getOnboarding, { tokenVerifier: kmsTokenVerifier });
