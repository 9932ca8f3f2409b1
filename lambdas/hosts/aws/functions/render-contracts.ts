// host -> the function of rendering: the render queue's event source mapping hands it one attempt of a
// contract run's Process step at a time; it reads the version (page images and text) and answers the
// run's Task with its token. It renders PDFs.
import { lazyRenderer } from '../../../adapters/pdf/lazy-pdf-ports';
import { renderRecords } from '../../render-records';
import { queueLambda } from '../lambda';

export const handler = queueLambda(renderRecords, { renderer: ({ common }) => lazyRenderer(common.blobs) });
