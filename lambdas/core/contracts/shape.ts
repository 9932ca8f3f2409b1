// core -> the shape a contract review starts in, per product (interface.md rule 3, decisions.md §8),
// and the shape a new version resets it to.
import type { Channel, ContractReview, LawyerReview, Micros, Part, Product, Publication } from '../model';

/** The channels a version of each product publishes to, in order. */
export const CHANNELS_OF: Readonly<Record<Product, readonly Channel[]>> = {
  contract_viewer: ['contract_viewer'],
  legal_information: ['contract_viewer', 'review'],
  legal_advice: ['review_snapshot'],
};

const hasAnalysis = (product: Product): boolean => product !== 'contract_viewer';

const part = (state: Part['state']): Part => ({
  state,
  completedAt: null,
  failureReason: null,
  failedAt: null,
});

const notRequested = (): LawyerReview => ({ state: 'not_requested', requestedAt: null, completedAt: null });

export const newContractReview = (fields: {
  id: string;
  scope: ContractReview['scope'];
  externalReference: string;
  product: Product;
  review: ContractReview['review'];
  clients: string[];
  recipient: ContractReview['recipient'];
  /** One unguessable slug per channel, kept for the contract's life so links survive new versions. */
  slugs: Readonly<Partial<Record<Channel, string>>>;
  now: Micros;
}): ContractReview => {
  const publications: Publication[] = CHANNELS_OF[fields.product].map((channel) => {
    const slug = fields.slugs[channel];
    if (slug === undefined) throw new Error(`no slug for channel ${channel}`);
    return { channel, state: 'pending', slug, url: null, publishedAt: null };
  });
  return {
    id: fields.id,
    scope: fields.scope,
    externalReference: fields.externalReference,
    product: fields.product,
    version: 1,
    review: fields.review,
    processing: part('running'),
    analysis: hasAnalysis(fields.product) ? part('pending') : null,
    lawyerReview: hasAnalysis(fields.product) ? notRequested() : null,
    publications,
    clients: fields.clients,
    recipient: fields.recipient,
    createdAt: fields.now,
    updatedAt: fields.now,
  };
};

/** The review as a new version leaves it: read again, every publication pending at the same slug. */
export const withNewVersion = (review: ContractReview, clients: string[], now: Micros): ContractReview => ({
  ...review,
  version: review.version + 1,
  processing: part('running'),
  analysis: review.analysis && part('pending'),
  lawyerReview: review.lawyerReview && notRequested(),
  publications: review.publications.map((publication) => ({ ...publication, state: 'pending', url: null })),
  clients,
  updatedAt: now,
});
