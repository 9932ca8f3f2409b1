// pages -> the contract's own text, reflowed for reading on a phone: the text layer's runs
// (pdf.js's, in reading order) made into lines (runs on the same baseline), paragraphs (lines closer than
// one and a half times their height) and headings (lines set well above the contract's body size), page
// by page. Shown by the pages' `Text` view, at the reader's own font size; the clause finder links a
// review's "clause N" to the page where clause N starts.
import type { RenderedContract, RenderedPage, TextRun } from '../core/rendered-contract';
import { escapeHtml } from './html';

interface Line {
  text: string;
  y: number;
  height: number;
}

/** A line's height above the body's by this factor makes it a heading. */
const HEADING_FACTOR = 1.3;
/** Lines further apart than this many of their heights start a new paragraph. */
const PARAGRAPH_GAP = 1.5;

/** The page's runs worth reading, grouped into lines: a run starting near the last one's top joins it. */
export const linesOf = (page: RenderedPage): Line[] => {
  const lines: Line[] = [];
  const runs = page.text.filter((run: TextRun) => run.text.trim() !== '');
  for (const run of runs) {
    const last = lines.at(-1);
    if (last && Math.abs(run.y - last.y) < 0.5 * Math.max(run.height, last.height)) {
      last.text = `${last.text} ${run.text.trim()}`;
      last.height = Math.max(last.height, run.height);
    } else lines.push({ text: run.text.trim(), y: run.y, height: run.height });
  }
  return lines;
};

/** The body size: the median line height of the whole contract (most lines are body text). */
const bodyHeight = (contract: RenderedContract): number => {
  const heights = contract.pages
    .flatMap(linesOf)
    .map((line) => line.height)
    .sort((a, b) => a - b);
  return heights[Math.floor(heights.length / 2)] ?? 0;
};

/** A numbered clause's start: "4.", "4)", "12.3" or "Clause 4". */
const CLAUSE_START = /^(?:clause\s+)?(\d+)(?:[.)]|\.\d+|\s)/i;

/** One page's text as blocks of markup: headings (`h4`, below the page's `h3`) and paragraphs. */
const pageBlocks = (page: RenderedPage, body: number): string[] => {
  const blocks: string[] = [];
  let paragraph: string[] = [];
  let previous: Line | undefined;
  const endParagraph = () => {
    if (paragraph.length > 0) blocks.push(`<p>${escapeHtml(paragraph.join(' '))}</p>`);
    paragraph = [];
  };
  for (const line of linesOf(page)) {
    if (body > 0 && line.height >= HEADING_FACTOR * body) {
      endParagraph();
      blocks.push(`<h4>${escapeHtml(line.text)}</h4>`);
    } else {
      const apart = previous !== undefined && line.y - previous.y > PARAGRAPH_GAP * previous.height;
      if (apart || CLAUSE_START.test(line.text)) endParagraph();
      paragraph.push(line.text);
    }
    previous = line;
  }
  endParagraph();
  return blocks;
};

/** The `Text` view: every page's reflowed text under its page's heading, linking back to the page. */
export const textView = (contract: RenderedContract): string[] => {
  const body = bodyHeight(contract);
  return [
    '<section class="text-view" id="text" aria-labelledby="text-title" tabindex="-1">',
    '<h2 class="text-view-title" id="text-title">The contract’s text</h2>',
    '<p class="text-view-note">The words of the contract, reflowed to fit your screen. ' +
      '<a href="#pages">Show the pages</a> to see them as drawn.</p>',
    ...contract.pages.flatMap((page) => {
      const blocks = pageBlocks(page, body);
      return [
        `<section class="text-page" aria-labelledby="text-page-${page.number}">`,
        `<h3 class="text-page-title" id="text-page-${page.number}">Page ${page.number}</h3>`,
        ...(blocks.length > 0
          ? blocks
          : ['<p class="text-view-note">No text could be read from this page.</p>']),
        '</section>',
      ];
    }),
    '</section>',
  ];
};

/**
 * Where clause `n` starts: the first page with a line opening with its number ("4.", "Clause 4"), or
 * undefined when no line does.
 */
export const clausePage = (contract: RenderedContract, n: number): number | undefined =>
  contract.pages.find((page) =>
    linesOf(page).some((line) => Number(CLAUSE_START.exec(line.text)?.[1] ?? Number.NaN) === n),
  )?.number;
