// core -> the form of ids the interface hands out (decisions.md §5).
const idPattern = (prefix: string) => new RegExp(`^${prefix}_[A-Za-z0-9]{1,64}$`);

const ONBOARDING_ID = idPattern('onb');
const CONTRACT_REVIEW_ID = idPattern('crv');

export const isOnboardingId = (value: string): boolean => ONBOARDING_ID.test(value);
export const isContractReviewId = (value: string): boolean => CONTRACT_REVIEW_ID.test(value);
