// infra -> the rules of a web ACL in front of CloudFront (lib/edge-stack.ts), and why the upload paths differ.
// WAF reads at most the first 16 KB of a body at CloudFront (the default; 64 KB at most, at a price), so on
// `POST /v1/contract-reviews` and `…/{id}/versions` it sees the multipart framing, the `request` JSON and
// the first bytes of the PDF, never the rest: the managed rules that read the body (XSS, LFI, RFI, SSRF,
// Log4j, Java deserialisation, React RCE) would judge binary PDF bytes as text and can block a real
// contract. They only count (and label) on those two routes and block everywhere else; the ingest checks
// the whole body itself (read-upload.ts). The size WAF can check on an upload is the declared
// `Content-Length` (it compares no numbers, so a regular expression matches any above the largest body
// the ingest takes); a body sent without one is measured by the ingest alone.
import type { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import toRegexRange from 'to-regex-range';
import { ROUTES } from '../lambdas/api/routes';
import { MAX_UPLOAD_BODY_BYTES, payloadTooLarge } from '../lambdas/api/upload/read-upload';

type Statement = CfnWebACL.StatementProperty;
type Rule = CfnWebACL.RuleProperty;

/** Requests from one address in any 5 minutes before WAF blocks it (the rate rule). */
export const REQUESTS_PER_ADDRESS = 2000;

/**
 * The AWS managed rule groups every request passes, in order: the namespace of their labels and their
 * rules that read the body (AWS WAF developer guide, "Baseline rule groups"), each of which labels what it
 * matches `awswaf:managed:aws:<labels>:<rule with _Body for _BODY>`.
 */
export const MANAGED_RULE_GROUPS = [
  {
    name: 'AWSManagedRulesCommonRuleSet',
    labels: 'core-rule-set',
    bodyRules: [
      'SizeRestrictions_BODY',
      'EC2MetaDataSSRF_BODY',
      'GenericLFI_BODY',
      'GenericRFI_BODY',
      'CrossSiteScripting_BODY',
    ],
  },
  {
    name: 'AWSManagedRulesKnownBadInputsRuleSet',
    labels: 'known-bad-inputs',
    bodyRules: ['JavaDeserializationRCE_BODY', 'Log4JRCE_BODY', 'ReactJSRCE_BODY'],
  },
] as const;

/**
 * Counted everywhere, never blocking, as each matches bodies the service takes by design:
 * - `SizeRestrictions_BODY`: its 8 KB is below bodies the service takes outside the uploads too (a review
 *   of up to 256 KB in the back office, MCP calls, API Gateway's 10 MB), each refused past its own limit
 *   by the application;
 * - `GenericRFI_BODY` matches a URL whose host is an IPv4 address, which is what a webhook endpoint
 *   registered by the portal or MCP may be (a public https address, a name or a public IP:
 *   `lambdas/core/webhooks/target.ts`, which refuses any other and checks every delivery's connection
 *   too); the service never fetches a URL a body names but a webhook endpoint's.
 */
export const COUNTED_BODY_RULES: readonly string[] = ['SizeRestrictions_BODY', 'GenericRFI_BODY'];

/** The label a managed rule puts on a request it matches. */
export const managedRuleLabel = (labels: string, rule: string): string =>
  `awswaf:managed:aws:${labels}:${rule.replace(/_BODY$/, '_Body')}`;

/** The routes whose body is a PDF (lambdas/api/routes.ts): the ingest's two uploads. */
const UPLOAD_ROUTES = ROUTES.filter((route) => route.upload);

/** The key of the JSON body WAF answers a too-large upload with (the API's 413 `payload_too_large`). */
export const PAYLOAD_TOO_LARGE_BODY = 'payload-too-large';

/** A `Content-Length` above the largest upload body: leading zeros allowed, 10 digits or more always over. */
export const OVERSIZE_CONTENT_LENGTH = `^0*(?:${toRegexRange(MAX_UPLOAD_BODY_BYTES + 1, 999_999_999)}|[1-9]\\d{9,})$`;

const NONE = [{ priority: 0, type: 'NONE' }];
const and = (statements: Statement[]): Statement =>
  statements.length === 1 ? (statements[0] as Statement) : { andStatement: { statements } };
const or = (statements: Statement[]): Statement =>
  statements.length === 1 ? (statements[0] as Statement) : { orStatement: { statements } };

/** The request is one of the upload routes: its method, and its path with `{id}` any one segment. */
const isUpload: Statement = or(
  UPLOAD_ROUTES.map((route) =>
    and([
      {
        byteMatchStatement: {
          fieldToMatch: { method: {} },
          positionalConstraint: 'EXACTLY',
          searchString: route.method,
          textTransformations: NONE,
        },
      },
      {
        regexMatchStatement: {
          fieldToMatch: { uriPath: {} },
          regexString: `^${route.path.replace(/\{[^}]+\}/g, '[^/]+')}$`,
          textTransformations: NONE,
        },
      },
    ]),
  ),
);

export type Metric = (name: string) => CfnWebACL.VisibilityConfigProperty;

/**
 * The rules, in order: the rate per address; the managed groups, their body rules counted; then (where
 * `uploads`, i.e. a stage's web ACL) a block of a body rule's label anywhere but an upload, and of an
 * upload whose `Content-Length` is over the limit. Without `uploads` every body rule but the counted ones blocks.
 */
export function webAclRules(metric: Metric, uploads: boolean): Rule[] {
  const blockedBodyLabels = MANAGED_RULE_GROUPS.flatMap((group) =>
    group.bodyRules
      .filter((rule) => !COUNTED_BODY_RULES.includes(rule))
      .map((rule) => managedRuleLabel(group.labels, rule)),
  );
  const anyBlockedBodyLabel = or(
    blockedBodyLabels.map((key) => ({ labelMatchStatement: { scope: 'LABEL', key } })),
  );
  return [
    {
      name: 'RatePerAddress',
      priority: 0,
      action: { block: {} },
      statement: {
        rateBasedStatement: { limit: REQUESTS_PER_ADDRESS, aggregateKeyType: 'IP', evaluationWindowSec: 300 },
      },
      visibilityConfig: metric('rate-per-address'),
    },
    ...MANAGED_RULE_GROUPS.map((group, index) => ({
      name: group.name,
      priority: index + 1,
      overrideAction: { none: {} },
      statement: {
        managedRuleGroupStatement: {
          vendorName: 'AWS',
          name: group.name,
          ruleActionOverrides: group.bodyRules
            .filter((rule) => uploads || COUNTED_BODY_RULES.includes(rule))
            .map((rule) => ({ name: rule, actionToUse: { count: {} } })),
        },
      },
      visibilityConfig: metric(group.name),
    })),
    ...(uploads
      ? [
          {
            name: 'BodyRulesOutsideUploads',
            priority: MANAGED_RULE_GROUPS.length + 1,
            action: { block: {} },
            statement: and([anyBlockedBodyLabel, { notStatement: { statement: isUpload } }]),
            visibilityConfig: metric('body-rules-outside-uploads'),
          },
          {
            name: 'UploadTooLarge',
            priority: MANAGED_RULE_GROUPS.length + 2,
            action: {
              block: { customResponse: { responseCode: 413, customResponseBodyKey: PAYLOAD_TOO_LARGE_BODY } },
            },
            statement: and([
              isUpload,
              {
                regexMatchStatement: {
                  fieldToMatch: { singleHeader: { Name: 'content-length' } },
                  regexString: OVERSIZE_CONTENT_LENGTH,
                  textTransformations: NONE,
                },
              },
            ]),
            visibilityConfig: metric('upload-too-large'),
          },
        ]
      : []),
  ];
}

/** The web ACL's custom answers: the API's own 413 body for an upload WAF finds too large. */
export const webAclResponseBodies = (
  uploads: boolean,
): Record<string, CfnWebACL.CustomResponseBodyProperty> | undefined => {
  if (!uploads) return undefined;
  const { code, message } = payloadTooLarge();
  return {
    [PAYLOAD_TOO_LARGE_BODY]: {
      contentType: 'APPLICATION_JSON',
      content: JSON.stringify({ error: { code, message } }),
    },
  };
};
