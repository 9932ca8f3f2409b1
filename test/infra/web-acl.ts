// test support -> how AWS WAF judges a request by a synthesised web ACL (AWS WAF developer guide: rules in
// priority order, a managed rule group's rule blocks unless overridden to count, which labels the request
// for the rules after it; the first terminating action wins, else the default). Only the statements the
// service's web ACLs use are known; any other fails the test rather than being guessed at.
import type { Template } from 'aws-cdk-lib/assertions';

/** A managed rule the request's content would match, by its group's name and its own. */
export interface ManagedMatch {
  readonly group: string;
  readonly rule: string;
}

export interface WafRequest {
  readonly method: string;
  /** The URI path, without the query string. */
  readonly path: string;
  /** By lower-case name. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly matches?: readonly ManagedMatch[];
}

export type Verdict =
  | { readonly action: 'allow' }
  | { readonly action: 'block'; readonly rule: string; readonly status: number; readonly body?: string };

/** The label namespaces of AWS's managed rule groups, as the developer guide lists them. */
const LABEL_NAMESPACES: Readonly<Record<string, string>> = {
  AWSManagedRulesCommonRuleSet: 'core-rule-set',
  AWSManagedRulesKnownBadInputsRuleSet: 'known-bad-inputs',
};

/** A body rule's label: `CrossSiteScripting_BODY` labels `…:core-rule-set:CrossSiteScripting_Body`. */
const labelOf = ({ group, rule }: ManagedMatch): string => {
  const namespace = LABEL_NAMESPACES[group];
  if (!namespace || !rule.endsWith('_BODY')) throw new Error(`no known label for ${group} ${rule}`);
  return `awswaf:managed:aws:${namespace}:${rule.replace(/_BODY$/, '_Body')}`;
};

// biome-ignore lint/suspicious/noExplicitAny: a template's JSON, read in the shapes WAF's API documents.
type Json = Record<string, any>;

/** The one web ACL of a template, as CloudFormation gets it. */
export const webAclOf = (template: Template): Json => {
  const acls = Object.values(template.findResources('AWS::WAFv2::WebACL'));
  if (acls.length !== 1) throw new Error(`${acls.length} web ACLs`);
  return (acls[0] as Json).Properties;
};

const fieldOf = (field: Json, request: WafRequest): string | undefined => {
  if (field.Method) return request.method;
  if (field.UriPath) return request.path;
  if (field.SingleHeader) return request.headers?.[String(field.SingleHeader.Name).toLowerCase()];
  throw new Error(`unknown field to match ${JSON.stringify(field)}`);
};

const matches = (statement: Json, request: WafRequest, labels: ReadonlySet<string>): boolean => {
  const [[type, body]] = Object.entries(statement) as [[string, Json]];
  const transformed = (value: string | undefined) => {
    for (const transformation of body.TextTransformations ?? [])
      if (transformation.Type !== 'NONE') throw new Error(`unknown transformation ${transformation.Type}`);
    return value;
  };
  switch (type) {
    case 'AndStatement':
      return body.Statements.every((inner: Json) => matches(inner, request, labels));
    case 'OrStatement':
      return body.Statements.some((inner: Json) => matches(inner, request, labels));
    case 'NotStatement':
      return !matches(body.Statement, request, labels);
    case 'LabelMatchStatement':
      if (body.Scope !== 'LABEL') throw new Error(`unknown label scope ${body.Scope}`);
      return labels.has(body.Key);
    case 'ByteMatchStatement': {
      const value = transformed(fieldOf(body.FieldToMatch, request));
      if (value === undefined) return false;
      const search = String(body.SearchString);
      const positions: Record<string, boolean> = {
        EXACTLY: value === search,
        STARTS_WITH: value.startsWith(search),
        ENDS_WITH: value.endsWith(search),
        CONTAINS: value.includes(search),
      };
      const result = positions[body.PositionalConstraint];
      if (result === undefined) throw new Error(`unknown position ${body.PositionalConstraint}`);
      return result;
    }
    case 'RegexMatchStatement': {
      const value = transformed(fieldOf(body.FieldToMatch, request));
      return value !== undefined && new RegExp(body.RegexString).test(value);
    }
    default:
      throw new Error(`unknown statement ${type}`);
  }
};

/** What the web ACL does with `request`. */
export function judge(acl: Json, request: WafRequest): Verdict {
  const labels = new Set<string>();
  const block = (rule: string, response?: Json): Verdict => {
    const key = response?.CustomResponseBodyKey;
    return {
      action: 'block',
      rule,
      status: response?.ResponseCode ?? 403,
      ...(key && { body: acl.CustomResponseBodies[key].Content }),
    };
  };
  const rules = [...(acl.Rules as Json[])].sort((a, b) => a.Priority - b.Priority);
  for (const rule of rules) {
    const statement = rule.Statement as Json;
    if (statement.RateBasedStatement) continue;
    const group = statement.ManagedRuleGroupStatement;
    if (group) {
      const counted = new Set(
        (group.RuleActionOverrides ?? [])
          .filter((override: Json) => override.ActionToUse.Count)
          .map((override: Json) => override.Name),
      );
      for (const match of request.matches ?? []) {
        if (match.group !== group.Name) continue;
        if (!counted.has(match.rule)) return block(`${group.Name}:${match.rule}`);
        labels.add(labelOf(match));
      }
      continue;
    }
    if (!matches(statement, request, labels)) continue;
    if (rule.Action.Block) return block(rule.Name, rule.Action.Block.CustomResponse);
    if (rule.Action.Allow) return { action: 'allow' };
    for (const label of rule.RuleLabels ?? []) labels.add(label.Name);
  }
  if (acl.DefaultAction.Allow) return { action: 'allow' };
  return block('default');
}
