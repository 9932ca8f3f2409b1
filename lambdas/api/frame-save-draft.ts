// api -> PUT /api/draft on the frame address: keeps what the person typed so far, sealed.
import { checkAnswersBodySize, onboardingOfToken, saveDraft, sessionTokenOf } from '../core/onboarding-frame';
import { endpoint, noContent } from './http/endpoint';

export const frameSaveDraft = endpoint(async (request, { ports }) => {
  const onboarding = await onboardingOfToken(ports, sessionTokenOf(request.header('authorization')));
  checkAnswersBodySize(request.contentLength);
  await saveDraft(ports, onboarding, await request.text());
  return noContent();
});
