// api -> PUT /api/draft on the frame address: keeps what this browser typed so far, sealed, for it alone.

import { checkAnswersBodySize, saveDraft } from '../core/onboarding-frame';
import type { Ports } from '../core/ports';
import type { Services } from '../core/services';
import { frameCall } from './frame-caller';
import { endpoint, noContent } from './http/endpoint';

export const frameSaveDraft = endpoint(
  async (
    request,
    services: Services<Pick<Ports, 'answerVault' | 'clock' | 'ids' | 'onboardings' | 'rateLimiter'>>,
  ) => {
    const { onboarding, browser } = await frameCall(request, services, 'draft');
    checkAnswersBodySize(request.contentLength);
    await saveDraft(services.ports, onboarding, browser, await request.text());
    return noContent();
  },
);
