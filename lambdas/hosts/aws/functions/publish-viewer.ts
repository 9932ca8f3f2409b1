// host -> the function of the contract run: publish the contract viewer.
import { publishViewer } from '../../../workers/publish-viewer';
import { workerLambda } from '../lambda';

export const handler = workerLambda(publishViewer);
