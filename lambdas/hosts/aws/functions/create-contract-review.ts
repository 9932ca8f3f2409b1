// host -> the function of POST /v1/contract-reviews: it inspects the PDF it receives.
import { lazyPdfInspector } from '../../../adapters/pdf/lazy-pdf-ports';
import { createContractReview } from '../../../api/create-contract-review';
import { apiLambda } from '../lambda';

export const handler = await apiLambda(createContractReview, { pdfs: lazyPdfInspector });
