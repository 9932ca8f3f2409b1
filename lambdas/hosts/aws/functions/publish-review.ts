// host -> the function of the review run: publish the review channels.
import { publishReview } from '../../../workers/publish-review';
import { workerLambda } from '../lambda';
import { awsBlobs } from '../services';

export const handler = workerLambda(publishReview, { blobs: awsBlobs });
