// api -> POST /v1/contract-reviews/{id}/versions: a changed contract, at the same link.

import { authenticate, enforceUploadQuota } from '../core/auth';
import { getOwnContractReview } from '../core/contracts/read';
import { sendVersion } from '../core/contracts/send';
import type { Services } from '../core/services';
import { endpoint } from './http/endpoint';
import {
  checkUploadHeaders,
  receiveUpload,
  type UploadEndpointPorts,
  uploadReply,
} from './http/receive-upload';

export const createContractReviewVersion = endpoint(
  async (request, { ports, settings }: Services<UploadEndpointPorts>) => {
    const scope = await authenticate(ports, settings, request);
    await enforceUploadQuota(ports, settings, scope);
    const headers = checkUploadHeaders(request);
    // An unknown id is answered before the body is read.
    const review = await getOwnContractReview(ports, scope, request.pathParameters.id ?? '');
    const upload = await receiveUpload(request, ports, headers);
    return uploadReply(await sendVersion(ports, { scope, contractReviewId: review.id, ...upload }));
  },
);
