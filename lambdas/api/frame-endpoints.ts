// api -> every frame API endpoint by the name `frame-routes.ts` gives it, for the hosts that route in-process.

import type { CommonPorts, Ports } from '../core/ports';
import { frameNotFound } from './frame-not-found';
import { FRAME_FALLBACK_HANDLER, FRAME_ROUTES, type FrameEndpointName } from './frame-routes';
import { frameSaveDraft } from './frame-save-draft';
import { frameShowForm } from './frame-show-form';
import { frameSubmitForm } from './frame-submit-form';
import type { RouteTable } from './http/endpoint';

/** The ports of every frame API endpoint. */
export type FramePorts = CommonPorts & Pick<Ports, 'workflows' | 'answerVault'>;

export const FRAME_ENDPOINTS: RouteTable<FrameEndpointName, FramePorts> = {
  routes: FRAME_ROUTES,
  endpoints: {
    'frame-show-form': frameShowForm,
    'frame-save-draft': frameSaveDraft,
    'frame-submit-form': frameSubmitForm,
    [FRAME_FALLBACK_HANDLER]: frameNotFound,
  },
  fallback: FRAME_FALLBACK_HANDLER,
};
