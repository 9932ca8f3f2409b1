// core -> what the pipeline keeps between its steps, in the blob store: the rendered pages and their
// manifest (processing), the analysis (for the lawyer) and the lawyer's review text. Keys are per
// version, so a retried step overwrites its own output and never another version's.

const versionFolder = (contractReviewId: string, version: number) =>
  `renders/${contractReviewId}/v${version}/`;

export const artifacts = {
  /** Where the renderer puts the page images of a version. */
  pagesPrefix: (contractReviewId: string, version: number) => versionFolder(contractReviewId, version),
  /** The RenderedContract of a version: its pages, images and text, as processing left them. */
  manifest: (contractReviewId: string, version: number) =>
    `${versionFolder(contractReviewId, version)}contract.json`,
  analysis: (contractReviewId: string, version: number) =>
    `${versionFolder(contractReviewId, version)}analysis.json`,
  /** The analysis as Markdown: the draft a review starts from. */
  analysisMarkdown: (contractReviewId: string, version: number) =>
    `${versionFolder(contractReviewId, version)}analysis.md`,
  /** The lawyer's review of a version, Markdown, as published before each publish had its own key. */
  review: (contractReviewId: string, version: number) => `reviews/${contractReviewId}/v${version}/review.md`,
  /**
   * The text one publish of a version's review stores, under a key of that attempt alone: of two racing
   * publishes the loser never overwrites the winner's text (the record names the winner's key).
   */
  reviewText: (contractReviewId: string, version: number, attempt: string) =>
    `reviews/${contractReviewId}/v${version}/review-${attempt}.md`,
};
