// client -> webhook verification (Standard Webhooks), re-exported from `standardwebhooks`, the reference
// implementation, rather than rewritten: an optional peer dependency, needed only by this entry
// (`<package>/webhooks`), so the client itself depends on nothing but the platform.
export { Webhook, WebhookVerificationError } from 'standardwebhooks';
