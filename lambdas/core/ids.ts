// core -> the form of ids the interface hands out (decisions.md §5): checked before any lookup, so a
// malformed or overlong id is answered as unknown without reaching the store (whose keys are bounded).
const idPattern = (prefix: string) => new RegExp(`^${prefix}_[A-Za-z0-9]{1,64}$`);

const ONBOARDING_ID = idPattern('onb');
const CONTRACT_REVIEW_ID = idPattern('crv');
const CLIENT_ID = idPattern('cli');
const WEBHOOK_ENDPOINT_ID = idPattern('whe');
const WEBHOOK_MESSAGE_ID = idPattern('msg');
const PERSON_ID = idPattern('per');
const REQUEST_ID = idPattern('rqs');

export const isOnboardingId = (value: string): boolean => ONBOARDING_ID.test(value);
export const isContractReviewId = (value: string): boolean => CONTRACT_REVIEW_ID.test(value);
export const isClientId = (value: string): boolean => CLIENT_ID.test(value);
export const isWebhookEndpointId = (value: string): boolean => WEBHOOK_ENDPOINT_ID.test(value);
export const isWebhookMessageId = (value: string): boolean => WEBHOOK_MESSAGE_ID.test(value);
export const isPersonId = (value: string): boolean => PERSON_ID.test(value);
/** A `Service-Request-Id`, as the request history lists it. */
export const isRequestId = (value: string): boolean => REQUEST_ID.test(value);
