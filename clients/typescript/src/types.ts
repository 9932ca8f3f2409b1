// client -> the resources and requests of the /v1 interface by name, from the generated types.
import type { components, operations } from './api-types.js';

type Schemas = components['schemas'];

export type ContractReview = Schemas['ContractReview'];
export type ContractRequest = Schemas['ContractRequest'];
export type VersionRequest = Schemas['VersionRequest'];
export type Client = Schemas['Client'];
export type Onboarding = Schemas['Onboarding'];
export type OnboardingSession = Schemas['OnboardingSession'];
export type Token = Schemas['Token'];
export type Product = Schemas['Product'];
/** Every code the API answers an error with. */
export type ErrorCode = Schemas['ErrorCode'];

export type ListClientsParams = NonNullable<operations['listClients']['parameters']['query']>;
export type ListContractReviewsParams = NonNullable<operations['listContractReviews']['parameters']['query']>;

/** One page of a list: newest first; `has_more` says another page follows. */
export interface Page<T> {
  data: T[];
  has_more: boolean;
}
