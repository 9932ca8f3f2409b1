// The pipeline's state changes as pure steps on plain records: what each changes and announces, null
// when repeated or when a newer version was accepted, the operator's refusals, and the time limit.
import { readFileSync } from 'node:fs';
import type { Change } from '../../lambdas/core/contracts/change';
import {
  analysisCompleted,
  lawyerReviewAwaited,
  lawyerReviewCompleted,
  lawyerReviewRequested,
  processingCompleted,
  processingFailed,
  processingTimeLimitMs,
  publicationOf,
  publicationPublished,
  publicationWithdrawn,
  REVIEW_CHANNELS,
  runGaveUp,
  type Step,
} from '../../lambdas/core/contracts/pipeline';
import { newContractReview, withNewVersion } from '../../lambdas/core/contracts/shape';
import { ActionRefused } from '../../lambdas/core/errors';
import type { EventType } from '../../lambdas/core/events';
import type { Channel, ContractReview, Micros, Product, Scope } from '../../lambdas/core/model';
import type { Ids } from '../../lambdas/core/ports';
import { presentContractReview } from '../../lambdas/core/present';

const SCOPE: Scope = { organisationId: 'org_harbour', integrationId: 'int_sales', environment: 'production' };
const T0: Micros = Date.UTC(2026, 10, 21, 9, 30) * 1000;
const URL_OF: Record<Channel, string> = {
  contract_viewer: 'https://pages.example/viewer-slug/',
  review: 'https://pages.example/review-slug/',
  review_snapshot: 'https://pages.example/snapshot-slug/',
};

/** Ids counted from 1 (`evt_1`, `evt_2`, …), so that every event's id is known in advance. */
const sequentialIds = (): Ids => {
  let n = 0;
  return {
    id: (prefix) => `${prefix}_${++n}`,
    secret: (prefix) => `${prefix}secret${++n}`,
  };
};

let ids: Ids;
beforeEach(() => {
  ids = sequentialIds();
});

/** Freezes a record all the way down: a step that changed what it was given would throw. */
const deepFreeze = <T>(value: T): T => {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
};

/** Version 1 of a contract review of `product`, as the 202 leaves it. */
const sent = (product: Product): ContractReview =>
  newContractReview({
    id: 'crv_1',
    scope: SCOPE,
    externalReference: 'sale-14-wattle-grove',
    product,
    review: product === 'legal_information' ? 'lawyer' : null,
    clients: ['cli_1'],
    recipient:
      product === 'legal_advice' ? { firstName: 'Ada', lastName: 'Okafor', email: 'ada@example.com' } : null,
    slugs: { contract_viewer: 'viewer-slug', review: 'review-slug', review_snapshot: 'snapshot-slug' },
    now: T0,
  });

/** Applies `step` to a frozen copy of `review` at `now`; the change it makes, or null. */
const apply = (step: Step, review: ContractReview, now: Micros): Change | null =>
  step(deepFreeze(structuredClone(review)), now);

/** Applies `step` expecting a change; its review. */
const changed = (step: Step, review: ContractReview, now: Micros): ContractReview => {
  const change = apply(step, review, now);
  if (change === null) throw new Error('the step changed nothing');
  return change.review;
};

/** Applies `steps` in order, one microsecond apart, each expected to change the review. */
const through = (review: ContractReview, ...steps: Step[]): ContractReview =>
  steps.reduce((current, step, i) => changed(step, current, current.updatedAt + i + 1), review);

const processed = (review: ContractReview) => through(review, processingCompleted(review.version));
const viewerLive = (review: ContractReview) =>
  through(
    processed(review),
    publicationPublished(ids, review.version, 'contract_viewer', URL_OF.contract_viewer),
  );
const analysed = (review: ContractReview) =>
  through(
    review.product === 'legal_advice' ? processed(review) : viewerLive(review),
    analysisCompleted(ids, review.version),
  );
const reviewRequested = (review: ContractReview) =>
  through(analysed(review), lawyerReviewRequested(ids, review.version));
const reviewCompleted = (review: ContractReview) =>
  through(reviewRequested(review), lawyerReviewCompleted(ids));

/** The event a step records: its id from the fake ids, the review exactly as GET shows it after. */
const eventOf = (
  id: string,
  type: EventType,
  review: ContractReview,
  now: Micros,
  publication?: { channel: Channel; url: string },
) => ({
  id,
  type,
  scope: SCOPE,
  occurredAt: now,
  data: JSON.stringify({
    ...(publication && { channel: publication.channel, url: publication.url }),
    contract_review: presentContractReview(review),
  }),
});

const newerVersion = (review: ContractReview): ContractReview =>
  withNewVersion(review, review.clients, review.updatedAt + 1_000);

const states = (review: ContractReview) => review.publications.map((p) => [p.channel, p.state]);

const refusal = (act: () => unknown): string => {
  try {
    act();
  } catch (error) {
    if (error instanceof ActionRefused) return error.message;
    throw error;
  }
  throw new Error('the step was not refused');
};

describe('processingCompleted', () => {
  test('completes the running processing, with no event of its own', () => {
    const review = sent('legal_information');
    const change = apply(processingCompleted(1), review, T0 + 5);
    expect(change).toEqual({
      review: {
        ...review,
        processing: { state: 'completed', completedAt: T0 + 5, failureReason: null, failedAt: null },
      },
      events: [],
    });
  });

  test('completes a processing that failed an earlier attempt, clearing its failure', () => {
    const failed = changed(processingFailed(ids, 1, 'processing_error'), sent('contract_viewer'), T0 + 1);
    expect(changed(processingCompleted(1), failed, T0 + 9).processing).toEqual({
      state: 'completed',
      completedAt: T0 + 9,
      failureReason: null,
      failedAt: null,
    });
  });

  test('is null when repeated, and for a version that is no longer the latest', () => {
    const done = processed(sent('contract_viewer'));
    expect(apply(processingCompleted(1), done, T0 + 10)).toBeNull();
    expect(apply(processingCompleted(1), newerVersion(done), T0 + 10)).toBeNull();
    expect(apply(processingCompleted(2), sent('contract_viewer'), T0 + 10)).toBeNull();
  });
});

describe('processingFailed', () => {
  test('moves the processing into failed and announces it with one processing.failed', () => {
    const review = sent('legal_information');
    const change = apply(processingFailed(ids, 1, 'processing_error'), review, T0 + 7);
    const failed: ContractReview = {
      ...review,
      processing: { state: 'failed', completedAt: null, failureReason: 'processing_error', failedAt: T0 + 7 },
    };
    expect(change).toEqual({
      review: failed,
      events: [eventOf('evt_1', 'contract-reviews.processing.failed', failed, T0 + 7)],
    });
    // The publications are still pending: the run may retry and publish.
    expect(states(failed)).toEqual([
      ['contract_viewer', 'pending'],
      ['review', 'pending'],
    ]);
  });

  test('a retry that fails again keeps it failed with the latest reason and time, and announces nothing', () => {
    const first = changed(processingFailed(ids, 1, 'processing_error'), sent('contract_viewer'), T0 + 1);
    const change = apply(processingFailed(ids, 1, 'timed_out'), first, T0 + 50);
    expect(change).toEqual({
      review: {
        ...first,
        processing: { state: 'failed', completedAt: null, failureReason: 'timed_out', failedAt: T0 + 50 },
      },
      events: [],
    });
  });

  test('is null once processing completed, and for a version that is no longer the latest', () => {
    const done = processed(sent('contract_viewer'));
    expect(apply(processingFailed(ids, 1, 'processing_error'), done, T0 + 10)).toBeNull();
    const v2 = newerVersion(sent('contract_viewer'));
    expect(apply(processingFailed(ids, 1, 'processing_error'), v2, T0 + 10)).toBeNull();
    expect(v2.processing.state).toBe('running');
  });
});

describe('publicationPublished', () => {
  test('puts a pending channel live at its url; the event is {channel, url, contract_review} as GET shows it', () => {
    const review = processed(sent('legal_information'));
    const url = URL_OF.contract_viewer;
    const change = apply(publicationPublished(ids, 1, 'contract_viewer', url), review, T0 + 20);
    expect(change?.review).toEqual({
      ...review,
      publications: [
        { channel: 'contract_viewer', state: 'published', slug: 'viewer-slug', url, publishedAt: T0 + 20 },
        { channel: 'review', state: 'pending', slug: 'review-slug', url: null, publishedAt: null },
      ],
    });
    expect(change?.events).toHaveLength(1);
    const [event] = change?.events ?? [];
    expect(event).toEqual(
      eventOf('evt_1', 'contract-reviews.publication.published', change?.review as ContractReview, T0 + 20, {
        channel: 'contract_viewer',
        url,
      }),
    );
    // Exactly these three fields, in this order, and the review in the fields and order of interface.md,
    // written out here rather than by the presenter (which the events and GET share).
    expect(event?.data).toBe(
      JSON.stringify({
        channel: 'contract_viewer',
        url,
        contract_review: {
          id: 'crv_1',
          external_reference: 'sale-14-wattle-grove',
          product: 'legal_information',
          version: 1,
          review: 'lawyer',
          processing: {
            state: 'completed',
            completed_at: '2026-11-21T09:30:00.000001Z',
            failure_reason: null,
            failed_at: null,
          },
          analysis: { state: 'pending', completed_at: null, failure_reason: null, failed_at: null },
          lawyer_review: { state: 'not_requested', requested_at: null, completed_at: null },
          publications: [
            {
              channel: 'contract_viewer',
              state: 'published',
              url,
              published_at: '2026-11-21T09:30:00.000020Z',
            },
            { channel: 'review', state: 'pending', url: null, published_at: null },
          ],
          clients: ['cli_1'],
          recipient: null,
          created_at: '2026-11-21T09:30:00.000000Z',
        },
      }),
    );
  });

  test('is null when repeated', () => {
    const live = viewerLive(sent('contract_viewer'));
    expect(
      apply(publicationPublished(ids, 1, 'contract_viewer', URL_OF.contract_viewer), live, T0 + 30),
    ).toBeNull();
  });

  test('is null for a withdrawn or failed publication: only a pending one goes live', () => {
    const withdrawn = through(
      viewerLive(sent('contract_viewer')),
      publicationWithdrawn(ids, 'contract_viewer'),
    );
    expect(
      apply(publicationPublished(ids, 1, 'contract_viewer', URL_OF.contract_viewer), withdrawn, T0 + 30),
    ).toBeNull();
    const failed = through(
      sent('contract_viewer'),
      processingFailed(ids, 1, 'processing_error'),
      runGaveUp(ids, { kind: 'contract', version: 1 }, 'processing_error'),
    );
    expect(publicationOf(failed, 'contract_viewer')?.state).toBe('failed');
    expect(
      apply(publicationPublished(ids, 1, 'contract_viewer', URL_OF.contract_viewer), failed, T0 + 30),
    ).toBeNull();
  });

  test('is null for a channel the product does not publish to', () => {
    const review = processed(sent('legal_advice'));
    expect(
      apply(publicationPublished(ids, 1, 'contract_viewer', URL_OF.contract_viewer), review, T0),
    ).toBeNull();
    expect(apply(publicationPublished(ids, 1, 'review', URL_OF.review), review, T0)).toBeNull();
  });

  test('is null for a version that is no longer the latest, which leaves the new version pending', () => {
    const v2 = newerVersion(viewerLive(sent('contract_viewer')));
    expect(publicationOf(v2, 'contract_viewer')).toMatchObject({ state: 'pending', url: null });
    expect(
      apply(publicationPublished(ids, 1, 'contract_viewer', URL_OF.contract_viewer), v2, T0 + 40),
    ).toBeNull();
    expect(
      changed(publicationPublished(ids, 2, 'contract_viewer', URL_OF.contract_viewer), v2, T0 + 40)
        .publications,
    ).toEqual([
      {
        channel: 'contract_viewer',
        state: 'published',
        slug: 'viewer-slug',
        url: URL_OF.contract_viewer,
        publishedAt: T0 + 40,
      },
    ]);
  });
});

describe('analysisCompleted', () => {
  test('completes the analysis and announces analysis.completed', () => {
    const review = viewerLive(sent('legal_information'));
    const change = apply(analysisCompleted(ids, 1), review, T0 + 60);
    const done: ContractReview = {
      ...review,
      analysis: { state: 'completed', completedAt: T0 + 60, failureReason: null, failedAt: null },
    };
    // evt_1 went to the viewer's publication.
    expect(change).toEqual({
      review: done,
      events: [eventOf('evt_2', 'contract-reviews.analysis.completed', done, T0 + 60)],
    });
  });

  test('is null when repeated, for a product without analysis, and for an older version', () => {
    const done = analysed(sent('legal_advice'));
    expect(apply(analysisCompleted(ids, 1), done, T0 + 70)).toBeNull();
    expect(apply(analysisCompleted(ids, 1), processed(sent('contract_viewer')), T0 + 70)).toBeNull();
    expect(apply(analysisCompleted(ids, 1), newerVersion(processed(sent('legal_advice'))), T0)).toBeNull();
  });
});

describe('lawyerReviewRequested', () => {
  test('asks for the lawyer’s review and announces lawyer_review.requested', () => {
    const review = analysed(sent('legal_advice'));
    const change = apply(lawyerReviewRequested(ids, 1), review, T0 + 80);
    const requested: ContractReview = {
      ...review,
      lawyerReview: { state: 'requested', requestedAt: T0 + 80, completedAt: null },
    };
    expect(change).toEqual({
      review: requested,
      events: [eventOf('evt_2', 'contract-reviews.lawyer_review.requested', requested, T0 + 80)],
    });
  });

  test('is null when repeated, once completed, for a product no lawyer reviews, and for an older version', () => {
    const requested = reviewRequested(sent('legal_information'));
    expect(apply(lawyerReviewRequested(ids, 1), requested, T0 + 90)).toBeNull();
    expect(apply(lawyerReviewRequested(ids, 1), reviewCompleted(sent('legal_information')), T0)).toBeNull();
    expect(apply(lawyerReviewRequested(ids, 1), processed(sent('contract_viewer')), T0)).toBeNull();
    const v2 = newerVersion(analysed(sent('legal_information')));
    expect(v2.lawyerReview?.state).toBe('not_requested');
    expect(apply(lawyerReviewRequested(ids, 1), v2, T0 + 90)).toBeNull();
  });
});

describe('lawyerReviewCompleted', () => {
  test.each([
    ['legal_information', 'review'],
    ['legal_advice', 'review_snapshot'],
  ] as const)(
    '%s: completes the requested review, announces it and, with no run waiting, records the review run',
    (product, _channel) => {
      const review = reviewRequested(sent(product));
      const change = apply(lawyerReviewCompleted(ids), review, T0 + 100);
      const completed: ContractReview = {
        ...review,
        lawyerReview: {
          state: 'completed',
          requestedAt: review.lawyerReview?.requestedAt ?? -1,
          completedAt: T0 + 100,
        },
      };
      expect(review.lawyerReview?.requestedAt).toEqual(expect.any(Number));
      const eventId = `evt_${product === 'legal_information' ? 4 : 3}`;
      expect(change).toEqual({
        review: completed,
        events: [eventOf(eventId, 'contract-reviews.lawyer_review.completed', completed, T0 + 100)],
        runs: [{ kind: 'review', environment: 'production', contractReviewId: 'crv_1', version: 1 }],
      });
      // The review channels go live later, in the review run.
      expect(completed.publications.filter((p) => REVIEW_CHANNELS.includes(p.channel))).toEqual([
        expect.objectContaining({ state: 'pending', url: null }),
      ]);
    },
  );

  test('with the version’s run waiting (its token kept), records no run: that run publishes once resumed', () => {
    const waiting = changed(
      lawyerReviewAwaited(1, 'token-v1'),
      reviewRequested(sent('legal_information')),
      T0 + 50,
    );
    const change = apply(lawyerReviewCompleted(ids), waiting, T0 + 100);
    expect(change?.runs).toEqual([]);
    // The token goes with the wait it ends.
    expect(change?.review.lawyerReview).toEqual({
      state: 'completed',
      requestedAt: waiting.lawyerReview?.requestedAt,
      completedAt: T0 + 100,
    });
  });

  test('records the review run of the version it completes', () => {
    const v2 = reviewRequested(newerVersion(reviewCompleted(sent('legal_advice'))));
    expect(v2.version).toBe(2);
    expect(apply(lawyerReviewCompleted(ids), v2, T0 + 200)?.runs).toEqual([
      { kind: 'review', environment: 'production', contractReviewId: 'crv_1', version: 2 },
    ]);
  });

  test('is refused while no review is requested: analysis not completed, or a new version not yet analysed', () => {
    expect(refusal(() => apply(lawyerReviewCompleted(ids), sent('legal_information'), T0))).toBe(
      'No review of crv_1 is requested yet: its analysis of version 1 has not completed.',
    );
    const v2 = newerVersion(reviewCompleted(sent('legal_information')));
    expect(refusal(() => apply(lawyerReviewCompleted(ids), v2, T0 + 300))).toBe(
      'No review of crv_1 is requested yet: its analysis of version 2 has not completed.',
    );
  });

  test('is refused once completed: a second publish would announce it twice', () => {
    const done = reviewCompleted(sent('legal_advice'));
    expect(refusal(() => apply(lawyerReviewCompleted(ids), done, T0 + 300))).toBe(
      'The review of version 1 of crv_1 is published already; a new version asks for a new one.',
    );
  });

  test('is refused for a product no lawyer reviews', () => {
    expect(refusal(() => apply(lawyerReviewCompleted(ids), viewerLive(sent('contract_viewer')), T0))).toBe(
      'crv_1 is a contract_viewer contract review, which no lawyer reviews.',
    );
  });
});

describe('lawyerReviewAwaited', () => {
  test('keeps the waiting run’s token on the requested review, with no event; the API never shows it', () => {
    const review = reviewRequested(sent('legal_information'));
    const change = apply(lawyerReviewAwaited(1, 'token-v1'), review, T0 + 100);
    expect(change).toEqual({
      review: { ...review, lawyerReview: { ...review.lawyerReview, waitToken: 'token-v1' } },
      events: [],
    });
    expect(JSON.stringify(presentContractReview(change?.review as ContractReview))).not.toContain('token-v1');
  });

  test('a retried wait keeps its new token; the same token again changes nothing', () => {
    const waiting = changed(
      lawyerReviewAwaited(1, 'token-a'),
      reviewRequested(sent('legal_advice')),
      T0 + 100,
    );
    expect(changed(lawyerReviewAwaited(1, 'token-b'), waiting, T0 + 200).lawyerReview?.waitToken).toBe(
      'token-b',
    );
    expect(apply(lawyerReviewAwaited(1, 'token-a'), waiting, T0 + 200)).toBeNull();
  });

  test('is null with nothing to wait for: the review not yet requested, published already, or a newer version', () => {
    expect(apply(lawyerReviewAwaited(1, 't'), analysed(sent('legal_information')), T0 + 100)).toBeNull();
    expect(
      apply(lawyerReviewAwaited(1, 't'), reviewCompleted(sent('legal_information')), T0 + 100),
    ).toBeNull();
    const v2 = reviewRequested(newerVersion(reviewCompleted(sent('legal_information'))));
    expect(apply(lawyerReviewAwaited(1, 't'), v2, T0 + 100)).toBeNull();
  });

  test('a new version drops the old wait’s token; giving up drops it too, so a later publish records a review run', () => {
    const waiting = changed(
      lawyerReviewAwaited(1, 'token-v1'),
      reviewRequested(sent('legal_information')),
      T0 + 100,
    );
    expect(newerVersion(waiting).lawyerReview?.waitToken).toBeUndefined();
    const gaveUp = changed(runGaveUp(ids, { kind: 'contract', version: 1 }, 'timed_out'), waiting, T0 + 200);
    expect(gaveUp.lawyerReview).toEqual({
      state: 'requested',
      requestedAt: waiting.lawyerReview?.requestedAt,
      completedAt: null,
    });
    expect(apply(lawyerReviewCompleted(ids), gaveUp, T0 + 300)?.runs).toEqual([
      { kind: 'review', environment: 'production', contractReviewId: 'crv_1', version: 1 },
    ]);
  });
});

describe('publicationWithdrawn', () => {
  test('takes a live publication down, keeping its url, and announces {channel, url, contract_review}', () => {
    const live = viewerLive(sent('legal_information'));
    const change = apply(publicationWithdrawn(ids, 'contract_viewer'), live, T0 + 400);
    const withdrawn: ContractReview = {
      ...live,
      publications: [
        {
          channel: 'contract_viewer',
          state: 'withdrawn',
          slug: 'viewer-slug',
          url: URL_OF.contract_viewer,
          publishedAt: publicationOf(live, 'contract_viewer')?.publishedAt ?? -1,
        },
        { channel: 'review', state: 'pending', slug: 'review-slug', url: null, publishedAt: null },
      ],
    };
    expect(change).toEqual({
      review: withdrawn,
      events: [
        eventOf('evt_2', 'contract-reviews.publication.withdrawn', withdrawn, T0 + 400, {
          channel: 'contract_viewer',
          url: URL_OF.contract_viewer,
        }),
      ],
    });
  });

  test('is refused for a channel the product does not publish to', () => {
    const live = viewerLive(sent('contract_viewer'));
    expect(refusal(() => apply(publicationWithdrawn(ids, 'review'), live, T0))).toBe(
      'crv_1 (contract_viewer) does not publish to review.',
    );
    expect(refusal(() => apply(publicationWithdrawn(ids, 'contract_viewer'), sent('legal_advice'), T0))).toBe(
      'crv_1 (legal_advice) does not publish to contract_viewer.',
    );
  });

  test('is refused for a publication that is not live: pending, withdrawn already, or failed', () => {
    const pending = sent('contract_viewer');
    const withdrawn = through(viewerLive(pending), publicationWithdrawn(ids, 'contract_viewer'));
    const failed = through(
      pending,
      processingFailed(ids, 1, 'processing_error'),
      runGaveUp(ids, { kind: 'contract', version: 1 }, 'processing_error'),
    );
    expect(
      [pending, withdrawn, failed].map((review) =>
        refusal(() => apply(publicationWithdrawn(ids, 'contract_viewer'), review, T0 + 500)),
      ),
    ).toEqual([
      'The contract_viewer publication of crv_1 is pending, not published.',
      'The contract_viewer publication of crv_1 is withdrawn, not published.',
      'The contract_viewer publication of crv_1 is failed, not published.',
    ]);
  });

  test('is refused for a new version’s publication until it is live again', () => {
    const v2 = newerVersion(viewerLive(sent('contract_viewer')));
    expect(refusal(() => apply(publicationWithdrawn(ids, 'contract_viewer'), v2, T0 + 500))).toBe(
      'The contract_viewer publication of crv_1 is pending, not published.',
    );
  });
});

describe('runGaveUp: a contract run', () => {
  const contractRun = { kind: 'contract', version: 1 } as const;

  test('with processing still running: processing failed with the reason, announced once', () => {
    const review = sent('contract_viewer');
    const change = apply(runGaveUp(ids, contractRun, 'timed_out'), review, T0 + 600);
    expect(change?.review.processing).toEqual({
      state: 'failed',
      completedAt: null,
      failureReason: 'timed_out',
      failedAt: T0 + 600,
    });
    expect(change?.events).toEqual([
      eventOf('evt_1', 'contract-reviews.processing.failed', change?.review as ContractReview, T0 + 600),
    ]);
    expect(change?.runs).toBeUndefined();
  });

  test('after processing failed: the analysis and every pending publication failed, the final state announced; processing kept as it failed', () => {
    const failed = through(sent('legal_information'), processingFailed(ids, 1, 'processing_error'));
    const change = apply(runGaveUp(ids, contractRun, 'processing_error'), failed, T0 + 700);
    expect(change).toEqual({
      review: {
        ...failed,
        analysis: {
          state: 'failed',
          completedAt: null,
          failureReason: 'processing_error',
          failedAt: T0 + 700,
        },
        publications: failed.publications.map((p) => ({ ...p, state: 'failed' })),
      },
      events: [
        eventOf(
          expect.any(String) as unknown as string,
          'contract-reviews.processing.failed',
          change?.review as ContractReview,
          T0 + 700,
        ),
      ],
    });
    expect(
      apply(runGaveUp(ids, contractRun, 'processing_error'), change?.review as ContractReview, T0),
    ).toBeNull();
  });

  test('after processing failed on a new version: publications failed, published_at of the old one kept', () => {
    const v2 = through(
      newerVersion(viewerLive(sent('contract_viewer'))),
      processingFailed(ids, 2, 'timed_out'),
    );
    const change = apply(runGaveUp(ids, { kind: 'contract', version: 2 }, 'timed_out'), v2, T0 + 800);
    expect(change?.review.publications).toEqual([
      {
        channel: 'contract_viewer',
        state: 'failed',
        slug: 'viewer-slug',
        url: null,
        publishedAt: publicationOf(v2, 'contract_viewer')?.publishedAt ?? -1,
      },
    ]);
    expect(change?.events.map((e) => e.type)).toEqual(['contract-reviews.processing.failed']);
  });

  test('with processing completed and the viewer still pending: the viewer failed, silently', () => {
    const review = processed(sent('contract_viewer'));
    const change = apply(runGaveUp(ids, contractRun, 'processing_error'), review, T0 + 900);
    expect(change).toEqual({
      review: { ...review, publications: [{ ...review.publications[0], state: 'failed' }] },
      events: [],
    });
    expect(
      apply(runGaveUp(ids, contractRun, 'processing_error'), change?.review as ContractReview, T0),
    ).toBeNull();
  });

  test('with the viewer live and the analysis not done: the analysis failed with the reason, silently', () => {
    const review = viewerLive(sent('legal_information'));
    const change = apply(runGaveUp(ids, contractRun, 'timed_out'), review, T0 + 1000);
    expect(change?.review.analysis).toEqual({
      state: 'failed',
      completedAt: null,
      failureReason: 'timed_out',
      failedAt: T0 + 1000,
    });
    expect(change?.review.processing).toEqual(review.processing);
    expect(publicationOf(change?.review as ContractReview, 'contract_viewer')).toEqual(
      publicationOf(review, 'contract_viewer'),
    );
    expect(change?.events).toEqual([]);
  });

  test('legal_advice (no viewer) with processing completed: the analysis failed', () => {
    const review = processed(sent('legal_advice'));
    expect(changed(runGaveUp(ids, contractRun, 'processing_error'), review, T0 + 1100).analysis).toEqual({
      state: 'failed',
      completedAt: null,
      failureReason: 'processing_error',
      failedAt: T0 + 1100,
    });
  });

  test('is null when everything it did is done', () => {
    expect(
      apply(runGaveUp(ids, contractRun, 'processing_error'), viewerLive(sent('contract_viewer')), T0),
    ).toBeNull();
    expect(
      apply(runGaveUp(ids, contractRun, 'processing_error'), reviewRequested(sent('legal_advice')), T0),
    ).toBeNull();
  });

  test('is null for a version that is no longer the latest: the new version’s run goes on', () => {
    const v2 = newerVersion(sent('legal_information'));
    expect(apply(runGaveUp(ids, contractRun, 'processing_error'), v2, T0 + 1200)).toBeNull();
    const failedV2 = through(v2, processingFailed(ids, 2, 'processing_error'));
    expect(apply(runGaveUp(ids, contractRun, 'processing_error'), failedV2, T0 + 1200)).toBeNull();
  });
});

describe('runGaveUp: a review run', () => {
  test.each([
    ['legal_information', 'review'],
    ['legal_advice', 'review_snapshot'],
  ] as const)('%s: the %s publication failed, silently; nothing else changes', (product, channel) => {
    const review = reviewCompleted(sent(product));
    const change = apply(
      runGaveUp(ids, { kind: 'review', version: 1 }, 'processing_error'),
      review,
      T0 + 1300,
    );
    expect(change).toEqual({
      review: {
        ...review,
        publications: review.publications.map((p) => (p.channel === channel ? { ...p, state: 'failed' } : p)),
      },
      events: [],
    });
    // The contract viewer, live since processing, stays live.
    if (product === 'legal_information')
      expect(publicationOf(change?.review as ContractReview, 'contract_viewer')?.state).toBe('published');
    expect(
      apply(
        runGaveUp(ids, { kind: 'review', version: 1 }, 'processing_error'),
        change?.review as ContractReview,
        T0,
      ),
    ).toBeNull();
  });

  test('is null once the review channels are live', () => {
    const review = reviewCompleted(sent('legal_advice'));
    const live = through(review, publicationPublished(ids, 1, 'review_snapshot', URL_OF.review_snapshot));
    expect(apply(runGaveUp(ids, { kind: 'review', version: 1 }, 'timed_out'), live, T0 + 1400)).toBeNull();
  });

  test('never touches a pending contract viewer, which is the contract run’s', () => {
    const review = processed(sent('contract_viewer'));
    expect(apply(runGaveUp(ids, { kind: 'review', version: 1 }, 'timed_out'), review, T0 + 1500)).toBeNull();
  });

  test('is null for a version that is no longer the latest', () => {
    const v2 = newerVersion(reviewCompleted(sent('legal_information')));
    expect(publicationOf(v2, 'review')?.state).toBe('pending');
    expect(apply(runGaveUp(ids, { kind: 'review', version: 1 }, 'timed_out'), v2, T0 + 1600)).toBeNull();
  });
});

describe('runGaveUp leaves nothing of its version under way for ever', () => {
  // A run that gave up is finished: no step of this version runs again. Whatever it leaves `pending`
  // or `running` stays so for good, and a GiveUp state retried (its finish failed) would change more.
  const contractRun = { kind: 'contract', version: 1 } as const;
  const underWay = (review: ContractReview) => [
    ...(['pending', 'running'].includes(review.processing.state)
      ? [`processing ${review.processing.state}`]
      : []),
    ...(review.analysis && ['pending', 'running'].includes(review.analysis.state)
      ? [`analysis ${review.analysis.state}`]
      : []),
    ...review.publications.filter((p) => p.state === 'pending').map((p) => `${p.channel} pending`),
  ];

  const situations: Array<[string, () => ContractReview]> = [
    ['contract_viewer, processing running', () => sent('contract_viewer')],
    [
      'contract_viewer, processing failed',
      () => through(sent('contract_viewer'), processingFailed(ids, 1, 'processing_error')),
    ],
    ['contract_viewer, viewer not published', () => processed(sent('contract_viewer'))],
    ['legal_information, processing running', () => sent('legal_information')],
    [
      'legal_information, processing failed',
      () => through(sent('legal_information'), processingFailed(ids, 1, 'processing_error')),
    ],
    ['legal_information, viewer not published', () => processed(sent('legal_information'))],
    ['legal_information, analysis not done', () => viewerLive(sent('legal_information'))],
    ['legal_advice, analysis not done', () => processed(sent('legal_advice'))],
  ];

  test.each(situations)('%s: nothing is left pending or running', (_, make) => {
    const gaveUp = changed(runGaveUp(ids, contractRun, 'processing_error'), make(), T0 + 2000);
    expect(underWay(gaveUp)).toEqual([]);
  });

  test.each(situations)('%s: giving up again changes nothing', (_, make) => {
    const gaveUp = changed(runGaveUp(ids, contractRun, 'processing_error'), make(), T0 + 2000);
    expect(apply(runGaveUp(ids, contractRun, 'processing_error'), gaveUp, T0 + 3000)).toBeNull();
  });
});

describe('processingTimeLimitMs', () => {
  test('a minute, and two seconds a page', () => {
    expect(processingTimeLimitMs(0)).toBe(60_000);
    expect(processingTimeLimitMs(1)).toBe(62_000);
    expect(processingTimeLimitMs(3)).toBe(66_000);
    expect(processingTimeLimitMs(100)).toBe(260_000);
  });

  test('at most 14 minutes, reached at 390 pages', () => {
    expect(processingTimeLimitMs(389)).toBe(838_000);
    expect(processingTimeLimitMs(390)).toBe(840_000);
    expect(processingTimeLimitMs(391)).toBe(840_000);
    expect(processingTimeLimitMs(1000)).toBe(840_000);
    expect(processingTimeLimitMs(1_000_000)).toBe(840_000);
  });

  test('a negative page count counts as none', () => {
    expect(processingTimeLimitMs(-5)).toBe(60_000);
  });

  test('always ends before the Process state’s own timeout, so the renderer reports timed_out first', () => {
    const definition = JSON.parse(
      readFileSync(new URL('../../lib/workflows/contract-pipeline.asl.json', import.meta.url), 'utf8'),
    ) as { States: { Process: { TimeoutSeconds: number } } };
    expect(processingTimeLimitMs(1_000_000)).toBeLessThan(definition.States.Process.TimeoutSeconds * 1000);
  });
});
