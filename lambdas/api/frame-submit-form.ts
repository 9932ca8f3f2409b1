// api -> POST /api/submit on the frame address: judges the answers and records the submission.
import {
  checkAnswersBodySize,
  onboardingOfToken,
  sessionTokenOf,
  submitForm,
} from '../core/onboarding-frame';
import { endpoint, noStore } from './http/endpoint';

export const frameSubmitForm = endpoint(async (request, { ports }) => {
  const onboarding = await onboardingOfToken(ports, sessionTokenOf(request.header('authorization')));
  checkAnswersBodySize(request.contentLength);
  return noStore(await submitForm(ports, onboarding, await request.text()));
});
