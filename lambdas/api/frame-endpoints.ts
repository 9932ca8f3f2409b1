// api -> every frame API endpoint by the name `frame-routes.ts` gives it, for the hosts that route in-process.
import { frameNotFound } from './frame-not-found';
import { FRAME_FALLBACK_HANDLER, FRAME_ROUTES, type FrameEndpointName } from './frame-routes';
import { frameSaveDraft } from './frame-save-draft';
import { frameShowForm } from './frame-show-form';
import { frameSubmitForm } from './frame-submit-form';
import type { RouteTable } from './http/endpoint';

export const FRAME_ENDPOINTS: RouteTable<FrameEndpointName> = {
  routes: FRAME_ROUTES,
  endpoints: {
    'frame-show-form': frameShowForm,
    'frame-save-draft': frameSaveDraft,
    'frame-submit-form': frameSubmitForm,
    [FRAME_FALLBACK_HANDLER]: frameNotFound,
  },
  fallback: FRAME_FALLBACK_HANDLER,
};
