// api -> POST /v1/contract-reviews: a contract PDF and its `request`, answered 202 at once.

import { authenticate, enforceUploadQuota } from '../core/auth';
import { sendContract } from '../core/contracts/send';
import type { Services } from '../core/services';
import { endpoint } from './http/endpoint';
import {
  checkUploadHeaders,
  receiveUpload,
  type UploadEndpointPorts,
  uploadReply,
} from './http/receive-upload';

export const createContractReview = endpoint(
  async (request, { ports, settings }: Services<UploadEndpointPorts>) => {
    const scope = await authenticate(ports, settings, request);
    await enforceUploadQuota(ports, settings, scope);
    const headers = checkUploadHeaders(request);
    const upload = await receiveUpload(request, ports, headers);
    return uploadReply(await sendContract(ports, { scope, ...upload }));
  },
);
