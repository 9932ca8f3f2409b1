// host -> the function of POST /v1/contract-reviews: it inspects the PDF it receives.
import { lazyPdfInspector } from '../../../adapters/pdf/lazy-pdf-ports';
import { createContractReview } from '../../../api/create-contract-review';
import { kmsTokenVerifier } from '../kms-token-keys';
import { apiLambda } from '../lambda';
import { awsBlobs, awsWorkflows } from '../services';

export const handler = await apiLambda(createContractReview, {
  tokenVerifier: kmsTokenVerifier,
  blobs: awsBlobs,
  workflows: awsWorkflows,
  pdfs: (host) => lazyPdfInspector(awsBlobs(host)),
});
