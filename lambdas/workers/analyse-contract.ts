// workers -> step `Analyse` (review products): the deterministic analysis of the version's text, kept
// for the lawyer as JSON and as the Markdown draft of the review; then the lawyer's review is due. An
// analysis that runs past its time limit throws `AnalysisTimedOut`, which the state does not retry: the
// run gives up and records the analysis failed, `timed_out` (finish-run.ts).

import { ANALYSIS_TIME_LIMIT_MS, analysisToMarkdown } from '../core/analysis';
import { putJson, putText, readJson } from '../core/blobs';
import { artifacts } from '../core/contracts/artifacts';
import { changeContractReview } from '../core/contracts/change';
import { analysisCompleted, lawyerReviewRequested } from '../core/contracts/pipeline';
import type { Ports } from '../core/ports';
import type { RenderedContract } from '../core/rendered-contract';
import type { Services } from '../core/services';
import { RunInput, worker } from './worker';

export const analyseVersion = worker(
  RunInput,
  async (
    run,
    { ports }: Services<Pick<Ports, 'analyser' | 'blobs' | 'clock' | 'contractReviews' | 'ids'>>,
  ): Promise<null> => {
    const id = run.contractReviewId;
    const review = await ports.contractReviews.get(id);
    if (review === null || review.version !== run.version || review.analysis === null) return null;
    if (review.analysis.state !== 'completed') {
      const contract = await readJson<RenderedContract>(ports.blobs, artifacts.manifest(id, run.version));
      const analysis = await ports.analyser.analyse(contract, Date.now() + ANALYSIS_TIME_LIMIT_MS);
      await putJson(ports.blobs, artifacts.analysis(id, run.version), analysis);
      await putText(
        ports.blobs,
        artifacts.analysisMarkdown(id, run.version),
        analysisToMarkdown(analysis),
        'text/markdown; charset=utf-8',
      );
      await changeContractReview(ports, id, analysisCompleted(ports.ids, run.version));
    }
    // Its own write, after the analysis's: `lawyer_review.requested` follows `analysis.completed`.
    await changeContractReview(ports, id, lawyerReviewRequested(ports.ids, run.version));
    return null;
  },
);
