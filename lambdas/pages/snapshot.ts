// pages -> the hosted page of the `review_snapshot` channel (product legal_advice): one page
// holding the review a lawyer wrote for one recipient and the contract it is about, as they stood when
// published. Every file of it lives under the version's folder (see viewer.ts), so nothing a later
// version writes changes what this version's page shows.
import { escapeHtml } from './html';
import { type ReviewPageInput, renderReviewedContract } from './review';
import type { ViewerOutput } from './viewer';

export type SnapshotPageInput = ReviewPageInput & {
  /** The one person the advice is written for (from a request; escaped here). */
  recipient: { firstName: string; lastName: string; email: string };
};

/** The snapshot page of one version: the advice written for its recipient, with the contract. */
export const renderSnapshotPage = (input: SnapshotPageInput): ViewerOutput => {
  const { firstName, lastName, email } = input.recipient;
  for (const [field, value] of Object.entries({ firstName, lastName, email }))
    if (value.trim() === '') throw new Error(`recipient ${field} is empty`);
  return renderReviewedContract(input, {
    titleSuffix: 'lawyer’s advice',
    heading: 'Lawyer’s advice',
    headerExtra: [
      `<p class="prepared">Prepared for ${escapeHtml(`${firstName} ${lastName}`)} (${escapeHtml(email)})</p>`,
      '<p class="note">A snapshot: the advice and the contract as they stood when this page was published.</p>',
    ],
  });
};
