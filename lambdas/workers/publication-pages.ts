// workers -> writing a channel's pages for a version and then recording the publication live. The pages
// go first, so a publication is never announced before its link works; a new version lifts an earlier
// withdrawal, since the publication is pending again.

import { changeContractReview } from '../core/contracts/change';
import { publicationOf, publicationPublished } from '../core/contracts/pipeline';
import type { Channel, ContractReview } from '../core/model';
import type { Ports } from '../core/ports';
import { withdrawnKey } from '../core/publications';
import type { Services } from '../core/services';
import { writeViewer } from '../pages/publication';
import type { ViewerOutput } from '../pages/viewer';

/** A publication's public address: the environment's pages host and the publication's stable slug. */
export const publicationUrl = (pagesBaseUrl: string, slug: string): string => `${pagesBaseUrl}/${slug}/`;

export const publishChannel = async (
  { ports, settings }: Services<Pick<Ports, 'blobs' | 'clock' | 'contractReviews' | 'ids'>>,
  review: ContractReview,
  channel: Channel,
  pages: () => ViewerOutput,
): Promise<void> => {
  const publication = publicationOf(review, channel);
  if (publication?.state !== 'pending') return;
  await writeViewer(ports.blobs, publication.slug, pages());
  await ports.blobs.delete(withdrawnKey(publication.slug));
  await changeContractReview(
    ports,
    review.id,
    publicationPublished(
      ports.ids,
      review.version,
      channel,
      publicationUrl(settings.pagesBaseUrl, publication.slug),
    ),
  );
};

/** The publication time shown on a page: now, as the record will say within moments. */
export const pageTime = (services: Services<Pick<Ports, 'clock'>>): string =>
  new Date(services.ports.clock.now() / 1000).toISOString();
