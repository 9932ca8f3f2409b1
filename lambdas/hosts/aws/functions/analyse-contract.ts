// host -> the function of the contract run: analyse a version, in this function's own thread (its
// deadline ends it; the local stack runs it in a worker thread instead).
import { inlineAnalyser } from '../../../adapters/analysis/inline-analyser';
import { analyseVersion } from '../../../workers/analyse-contract';
import { workerLambda } from '../lambda';
import { awsBlobs } from '../services';

export const handler = workerLambda(analyseVersion, {
  blobs: awsBlobs,
  analyser: () => inlineAnalyser(),
});
