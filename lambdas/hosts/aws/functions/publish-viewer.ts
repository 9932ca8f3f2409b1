// host -> the function of the contract run: publish the contract viewer.
import { publishViewer } from '../../../workers/publish-viewer';
import { workerLambda } from '../lambda';
import { awsBlobs } from '../services';

export const handler = workerLambda(publishViewer, { blobs: awsBlobs });
