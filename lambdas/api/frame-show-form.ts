// api -> GET /api/form on the frame address: the form as this browser left it (its draft, else the
// submission it sent), else empty; a browser without a binding gets one.

import { showForm } from '../core/onboarding-frame';
import type { Ports } from '../core/ports';
import type { Services } from '../core/services';
import { frameCall, withBinding } from './frame-caller';
import { endpoint, noStore } from './http/endpoint';

export const frameShowForm = endpoint(
  async (request, services: Services<Pick<Ports, 'answerVault' | 'ids' | 'onboardings' | 'rateLimiter'>>) => {
    const { onboarding, browser } = await frameCall(request, services);
    return withBinding(noStore(await showForm(services.ports, onboarding, browser)), browser);
  },
);
