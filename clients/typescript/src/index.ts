// client -> the package's entry: the client, its errors and the interface's types.
export {
  type ClientOptions,
  ContractServiceClient,
  type UploadOptions,
  type UploadResult,
} from './client.js';
export { isServiceApiError, ServiceApiError } from './errors.js';
export type * from './types.js';
export type { UploadFile } from './upload-body.js';
