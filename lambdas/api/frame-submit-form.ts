// api -> POST /api/submit on the frame address: judges the answers and records the submission, its
// answers bound to this browser (one without a binding gets one now).

import { checkAnswersBodySize, submitForm } from '../core/onboarding-frame';
import type { Ports } from '../core/ports';
import type { Services } from '../core/services';
import { frameCall, withBinding } from './frame-caller';
import { endpoint, noStore } from './http/endpoint';

export const frameSubmitForm = endpoint(
  async (
    request,
    services: Services<
      Pick<
        Ports,
        | 'answerVault'
        | 'clients'
        | 'clock'
        | 'environment'
        | 'ids'
        | 'onboardings'
        | 'rateLimiter'
        | 'workflows'
      >
    >,
  ) => {
    const { onboarding, browser } = await frameCall(request, services, 'submit');
    checkAnswersBodySize(request.contentLength);
    const bound = browser.binding === null ? { binding: browser.minted, minted: browser.minted } : browser;
    return withBinding(
      noStore(await submitForm(services.ports, onboarding, bound, await request.text())),
      bound,
    );
  },
);
