// pages -> Markdown written by the operator's lawyers (a review) made into markup for a hosted
// page. Nothing in it may run, style or fetch anything: raw HTML is shown as text, links go only to
// http(s) and mailto addresses and tell the browser not to vouch for them, images are not made (an
// image from elsewhere would be a request that leaves the page's origin, which the CSP refuses), and a
// table column's alignment becomes a class rather than the inline style the CSP would refuse.
//
// Headings are shifted down so the page's own h1 stays the only one, and never skip a level.
import MarkdownIt from 'markdown-it';

type Token = ReturnType<MarkdownIt['parse']>[number];

/** The link targets allowed: a web address with a host, or an email address. */
export const isAllowedLink = (href: string): boolean => {
  if (!/^(https?:\/\/|mailto:)/i.test(href)) return false;
  if (!URL.canParse(href)) return false;
  const url = new URL(href);
  return url.protocol === 'mailto:' ? url.pathname !== '' : url.hostname !== '';
};

const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });
markdown.disable('image');
const validateLink = markdown.validateLink.bind(markdown);
// markdown-it's own check (no javascript:, vbscript:, file:, data:) and then the allowed schemes only;
// a link refused here stays its literal source text.
markdown.validateLink = (url: string): boolean => validateLink(url) && isAllowedLink(url);

const REL = 'noopener noreferrer nofollow';
const ALIGN = /^text-align:(left|center|right)$/;

/** A heading's level from its tag (`h1`..`h6`). */
const levelOf = (token: Token): number => Number(token.tag.slice(1));

/** A reference in a review to a part of the contract: "clause 4", "Clause 12", "page 3". */
const REFERENCE = /\b(clause|page)\s+(\d{1,4})\b/gi;

/** Where a reference points on the page (`#page-3`), or undefined to leave it as text. */
export type ReferenceTarget = (kind: 'clause' | 'page', n: number) => string | undefined;

/** A text token split into text and links wherever `target` places a reference. */
const linkReferences = (text: Token, target: ReferenceTarget): Token[] => {
  const make = text.constructor as new (type: string, tag: string, nesting: -1 | 0 | 1) => Token;
  const textToken = (content: string) => Object.assign(new make('text', '', 0), { content });
  const out: Token[] = [];
  let from = 0;
  for (const match of text.content.matchAll(REFERENCE)) {
    const kind = (match[1] ?? '').toLowerCase() as 'clause' | 'page';
    const href = target(kind, Number(match[2]));
    if (href === undefined) continue;
    if (match.index > from) out.push(textToken(text.content.slice(from, match.index)));
    const open = new make('link_open', 'a', 1);
    open.attrSet('href', href);
    open.attrSet('class', 'reference');
    out.push(open, textToken(match[0]), new make('link_close', 'a', -1));
    from = match.index + match[0].length;
  }
  if (out.length === 0) return [text];
  if (from < text.content.length) out.push(textToken(text.content.slice(from)));
  return out;
};

/**
 * Rewrites the parsed tokens in place: headings shifted and never skipping a level, links given `rel`,
 * table alignment turned from a style into a class, references to the contract made links to its pages.
 */
const adjust = (tokens: Token[], topLevel: number, target?: ReferenceTarget): void => {
  // The level of the heading before; the page's own heading above the Markdown counts as the first.
  let previous = topLevel - 1;
  const open: number[] = [];
  for (const token of tokens) {
    if (token.type === 'heading_open') {
      const level = Math.min(6, levelOf(token) + topLevel - 1, previous + 1);
      open.push(level);
      previous = level;
      token.tag = `h${level}`;
    } else if (token.type === 'heading_close') {
      token.tag = `h${open.pop() ?? previous}`;
    } else if (token.type === 'th_open' || token.type === 'td_open') {
      const align = ALIGN.exec(token.attrGet('style') ?? '');
      token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
      if (align) token.attrJoin('class', `align-${align[1]}`);
    } else if (token.type === 'inline') {
      if (target) {
        // Only text outside the lawyer's own links (and outside code) becomes a link to a page.
        let inLink = 0;
        token.children = (token.children ?? []).flatMap((child) => {
          if (child.type === 'link_open') inLink++;
          if (child.type === 'link_close') inLink--;
          return child.type === 'text' && inLink === 0 ? linkReferences(child, target) : [child];
        });
      }
      for (const child of token.children ?? []) {
        if (child.type !== 'link_open' || child.attrGet('class') === 'reference') continue;
        // Checked again at the last step: what is not allowed is not written as a link target.
        if (!isAllowedLink(child.attrGet('href') ?? '')) child.attrs = [];
        child.attrSet('rel', REL);
      }
    }
  }
};

export interface MarkdownOptions {
  /**
   * The level a Markdown `#` heading becomes (2 to 6, default 2, below the page's h1); deeper headings
   * follow it, up to h6, and none is more than one level below the heading before it.
   */
  topLevel?: number;
  /** Where "clause N" and "page N" link to, on the same page; no links when omitted. */
  references?: ReferenceTarget;
}

/** Markdown as safe markup for a hosted page: see the top of this file for what is and is not made. */
export const markdownToHtml = (source: string, options: MarkdownOptions = {}): string => {
  const topLevel = options.topLevel ?? 2;
  if (!Number.isInteger(topLevel) || topLevel < 2 || topLevel > 6)
    throw new Error(`topLevel must be 2 to 6: ${topLevel}`);
  const tokens = markdown.parse(source, {});
  adjust(tokens, topLevel, options.references);
  return markdown.renderer.render(tokens, markdown.options, {});
};
