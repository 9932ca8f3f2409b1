// api -> GET /api/form on the frame address: the form as its person left it (draft, else last submission).
import { onboardingOfToken, sessionTokenOf, showForm } from '../core/onboarding-frame';
import { endpoint, noStore } from './http/endpoint';

export const frameShowForm = endpoint(async (request, { ports }) => {
  const onboarding = await onboardingOfToken(ports, sessionTokenOf(request.header('authorization')));
  return noStore(await showForm(ports, onboarding));
});
