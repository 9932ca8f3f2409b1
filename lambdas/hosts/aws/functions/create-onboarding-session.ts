// host -> the function of POST /v1/clients/onboardings/sessions.
import { createOnboardingSession } from '../../../api/create-onboarding-session';
import { kmsTokenVerifier } from '../kms-token-keys';
import { apiLambda } from '../lambda';

export const handler = await apiLambda(createOnboardingSession, { tokenVerifier: kmsTokenVerifier });
