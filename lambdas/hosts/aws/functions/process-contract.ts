// host -> the function of the contract run: read a version (page images and text); it renders the PDF.
import { lazyRenderer } from '../../../adapters/pdf/lazy-pdf-ports';
import { processContract } from '../../../workers/process-contract';
import { workerLambda } from '../lambda';

export const handler = workerLambda(processContract, { renderer: lazyRenderer });
