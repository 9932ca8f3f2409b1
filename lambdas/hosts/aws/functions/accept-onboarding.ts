// host -> the function of the acceptance run: accept a sign-up.
import { acceptOnboarding } from '../../../workers/accept-onboarding';
import { workerLambda } from '../lambda';

export const handler = workerLambda(acceptOnboarding);
