// host -> the function of POST /v1/contract-reviews/{id}/versions: it inspects the PDF it receives.
import { lazyPdfInspector } from '../../../adapters/pdf/lazy-pdf-ports';
import { createContractReviewVersion } from '../../../api/create-contract-review-version';
import { kmsTokenVerifier } from '../kms-token-keys';
import { apiLambda } from '../lambda';
import { awsBlobs, awsWorkflows } from '../services';

export const handler = await apiLambda(createContractReviewVersion, {
  tokenVerifier: kmsTokenVerifier,
  blobs: awsBlobs,
  workflows: awsWorkflows,
  pdfs: (host) => lazyPdfInspector(awsBlobs(host)),
});
