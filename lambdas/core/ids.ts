// core -> the form of ids the interface hands out (decisions.md §5): checked before any lookup, so a
// malformed or overlong id is answered as unknown without reaching the store (whose keys are bounded).
const idPattern = (prefix: string) => new RegExp(`^${prefix}_[A-Za-z0-9]{1,64}$`);

/** The ids the /v1 interface hands out, by prefix: its schemas (interface-schemas.ts) check them too. */
export const ID_PATTERNS = { onb: idPattern('onb'), crv: idPattern('crv'), cli: idPattern('cli') } as const;

const ONBOARDING_ID = ID_PATTERNS.onb;
const CONTRACT_REVIEW_ID = ID_PATTERNS.crv;
const CLIENT_ID = ID_PATTERNS.cli;
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
