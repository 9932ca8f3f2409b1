// workers -> step `PublishViewer`: the contract viewer of the version, live at its stable link.

import { readJson } from '../core/blobs';
import { artifacts } from '../core/contracts/artifacts';
import type { Ports } from '../core/ports';
import { documentTitle, type RenderedContract } from '../core/rendered-contract';
import type { Services } from '../core/services';
import { renderViewer } from '../pages/viewer';
import { pageTime, publishChannel } from './publication-pages';
import { RunInput, worker } from './worker';

export const publishViewer = worker(
  RunInput,
  async (
    run,
    services: Services<Pick<Ports, 'blobs' | 'clock' | 'contractReviews' | 'ids' | 'organisationNames'>>,
  ): Promise<null> => {
    const { ports } = services;
    const id = run.contractReviewId;
    const review = await ports.contractReviews.get(id);
    if (review === null || review.version !== run.version) return null;
    const version = await ports.contractReviews.getVersion(id, run.version);
    if (version === null) throw new Error(`no version ${run.version} of ${id}`);
    const contract = await readJson<RenderedContract>(ports.blobs, artifacts.manifest(id, run.version));
    const sender = await ports.organisationNames.get(review.scope.organisationId);
    await publishChannel(services, review, 'contract_viewer', () =>
      renderViewer({
        contract,
        title: documentTitle(contract),
        sender,
        publishedAt: pageTime(services),
        pdfKey: version.blobKey,
      }),
    );
    return null;
  },
);
