// core -> the records as the interface shows them (snake_case, field order of interface.md).
import type {
  ClientJson,
  ContractReviewJson,
  OnboardingJson,
  OnboardingSessionJson,
} from './interface-schemas';
import type { Client, ContractReview, LawyerReview, Onboarding, Part, Publication } from './model';
import { formatTime, formatTimeOrNull } from './time';

const presentPart = (part: Part) => ({
  state: part.state,
  completed_at: formatTimeOrNull(part.completedAt),
  failure_reason: part.failureReason,
  failed_at: formatTimeOrNull(part.failedAt),
});

const presentLawyerReview = (review: LawyerReview) => ({
  state: review.state,
  requested_at: formatTimeOrNull(review.requestedAt),
  completed_at: formatTimeOrNull(review.completedAt),
});

const presentPublication = (publication: Publication) => ({
  channel: publication.channel,
  state: publication.state,
  url: publication.url,
  published_at: formatTimeOrNull(publication.publishedAt),
});

export const presentContractReview = (review: ContractReview): ContractReviewJson => ({
  id: review.id,
  external_reference: review.externalReference,
  product: review.product,
  version: review.version,
  review: review.review,
  processing: presentPart(review.processing),
  analysis: review.analysis && presentPart(review.analysis),
  lawyer_review: review.lawyerReview && presentLawyerReview(review.lawyerReview),
  publications: review.publications.map(presentPublication),
  clients: [...review.clients],
  recipient: review.recipient && {
    first_name: review.recipient.firstName,
    last_name: review.recipient.lastName,
    email: review.recipient.email,
  },
  created_at: formatTime(review.createdAt),
});

export const presentClient = (client: Client): ClientJson => ({
  id: client.id,
  onboarding_id: client.onboardingId,
  reference: client.reference,
  primary: client.primary,
  first_name: client.firstName,
  last_name: client.lastName,
  email: client.email,
  mobile: client.mobile,
  created_at: formatTime(client.createdAt),
});

export const presentOnboarding = (onboarding: Onboarding, clients: Client[]): OnboardingJson => ({
  id: onboarding.id,
  reference: onboarding.reference,
  state: onboarding.state,
  clients: clients.map(presentClient),
  created_at: formatTime(onboarding.createdAt),
  submitted_at: formatTimeOrNull(onboarding.submittedAt),
  accepted_at: formatTimeOrNull(onboarding.acceptedAt),
});

export const presentOnboardingSession = (
  onboarding: Onboarding,
  sessionToken: string,
): OnboardingSessionJson => ({
  id: onboarding.id,
  reference: onboarding.reference,
  state: onboarding.state,
  session_token: sessionToken,
  created_at: formatTime(onboarding.createdAt),
});

export const presentList = <T, J>(page: { items: T[]; hasMore: boolean }, present: (item: T) => J) => ({
  data: page.items.map(present),
  has_more: page.hasMore,
});
