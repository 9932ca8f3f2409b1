// core -> what changed in a contract's text between two versions, page by page (issue 28, "beyond the
// anchors"): the review page shows it when a new version arrives while a lawyer's draft was written on an
// older one. Computed here, not in the browser, so the page receives only the changes (not both versions'
// text, megabytes for a 700-page contract) and the bounds below hold whoever calls it.
//
// The work stays about linear in the text: pages are first aligned with one diff over whole pages (equal
// text = same page), then only the pages that differ are diffed line by line. Both diffs are jsdiff's
// Myers diff with `maxEditLength`, so each costs at most (length × bound): when two contracts share almost
// nothing the pages are paired by position instead, and a page whose lines differ beyond the bound (a huge
// or wholly rewritten page) is shown as all its old lines deleted and all its new lines inserted.
//
// Page-number footers ("Page 4 of 12", "Contract of Sale – Page 4 of 12", "4 of 12") in a page's first or
// last two lines are compared without their numbers: a page inserted renumbers every later page, which
// would otherwise show them all changed. Only at a page's edges, so a cross-reference in a clause ("see
// page 4 of 12") that changes is still shown; a bare number is never ignored (it may be a figure).
//
// The answer is capped (a 700-page contract changed throughout would otherwise be megabytes): at most
// `MAX_SHOWN_PAGES` pages changed, added or removed, and `MAX_CHANGES_BYTES` of them as JSON. The pages
// past the cap are counted from the page alignment alone (no line diff is made for them) and named as
// `not_shown`: how many, from which page; the review page sends the lawyer to the two PDFs for those.
import { type ArrayChange, diffArrays } from 'diff';
import type { RenderedPage } from '../rendered-contract';

/** Edits (pages inserted + deleted) beyond which pages are paired by position rather than aligned. */
export const MAX_PAGE_EDITS = 100;
/** Edits (lines inserted + deleted) beyond which a page is shown as replaced rather than diffed. */
export const MAX_LINE_EDITS = 400;
/** Unchanged lines kept around a change on a changed page; longer runs are collapsed to a count. */
export const CONTEXT_LINES = 2;
/** Pages changed, added or removed shown in one answer; the rest are counted in `not_shown`. */
export const MAX_SHOWN_PAGES = 50;
/** The shown pages' JSON at most; the page that would pass it and every one after are counted instead. */
export const MAX_CHANGES_BYTES = 256 * 1024;

export type Line =
  | { change: 'inserted' | 'deleted' | 'unchanged'; text: string }
  /** Unchanged lines not shown. */
  | { change: 'skipped'; count: number };

export type PageChange =
  /** A run of pages whose text did not change: `after_first`…`after_last` in the newer version. */
  | { kind: 'unchanged'; count: number; after_first: number; after_last: number }
  | { kind: 'changed'; before: number; after: number; lines: Line[] }
  | { kind: 'added'; after: number; lines: Line[] }
  | { kind: 'removed'; before: number; lines: Line[] };

/**
 * A page's text as lines: its runs in reading order, a new line wherever a run starts lower or higher
 * than half a line from the one before (the PDF places text in runs, not lines).
 */
export const pageLines = (page: Pick<RenderedPage, 'text'>): string[] => {
  const lines: string[] = [];
  let current: string[] = [];
  let lineY: number | null = null;
  let lineHeight = 0;
  for (const run of page.text) {
    if (lineY !== null && Math.abs(run.y - lineY) > Math.max(run.height, lineHeight) / 2) {
      lines.push(current.join(' '));
      current = [];
    }
    if (current.length === 0) {
      lineY = run.y;
      lineHeight = run.height;
    }
    current.push(run.text);
  }
  if (current.length > 0) lines.push(current.join(' '));
  return lines.map((line) => line.replace(/\s+/g, ' ').trim()).filter((line) => line !== '');
};

/** Lines at each end of a page where a page-number footer (or header) is looked for. */
const EDGE_LINES = 2;
const PAGE_N_OF_N = /\bpage\s+\d{1,5}\s*(?:of|\/)\s*\d{1,5}\b/gi;
const PAGE_NUMBER_ALONE = /^(?:page\s+\d{1,5}|\d{1,5}\s*(?:of|\/)\s*\d{1,5})$/i;

/** Each line as it is compared: page numbers in the page's edge lines replaced by one placeholder. */
export const comparedLines = (lines: readonly string[]): string[] =>
  lines.map((line, n) =>
    n >= EDGE_LINES && n < lines.length - EDGE_LINES
      ? line
      : PAGE_NUMBER_ALONE.test(line)
        ? 'page #'
        : line.replace(PAGE_N_OF_N, 'page # of #'),
  );

const all = (change: 'inserted' | 'deleted', lines: readonly string[]): Line[] =>
  lines.map((text) => ({ change, text }));

/** Unchanged lines beyond `CONTEXT_LINES` of a change collapse to a count. */
const withContext = (lines: readonly string[], first: boolean, last: boolean): Line[] => {
  const head = first ? 0 : CONTEXT_LINES;
  const tail = last ? 0 : CONTEXT_LINES;
  if (lines.length <= head + tail + 1) return lines.map((text) => ({ change: 'unchanged', text }));
  return [
    ...lines.slice(0, head).map((text): Line => ({ change: 'unchanged', text })),
    { change: 'skipped', count: lines.length - head - tail },
    ...lines.slice(lines.length - tail).map((text): Line => ({ change: 'unchanged', text })),
  ];
};

/** The lines of one page that changed, deleted before inserted, with a little unchanged context. */
export const lineChanges = (before: readonly string[], after: readonly string[]): Line[] => {
  const parts = diffArrays(comparedLines(before), comparedLines(after), { maxEditLength: MAX_LINE_EDITS });
  if (parts === undefined) return [...all('deleted', before), ...all('inserted', after)];
  // The parts hold the compared lines; each is shown as written, read by its place in its version.
  let b = 0;
  let a = 0;
  return parts.flatMap((part: ArrayChange<string>, index) => {
    const count = part.value.length;
    const [fromB, fromA] = [b, a];
    if (!part.added) b += count;
    if (!part.removed) a += count;
    if (part.added) return all('inserted', after.slice(fromA, a));
    if (part.removed) return all('deleted', before.slice(fromB, b));
    return withContext(after.slice(fromA, a), index === 0, index === parts.length - 1);
  });
};

/** Runs of equal, deleted and inserted pages (by index), from the page diff or, beyond its bound, by position. */
const alignPages = (before: readonly string[], after: readonly string[]) => {
  const parts = diffArrays(before as string[], after as string[], { maxEditLength: MAX_PAGE_EDITS });
  if (parts !== undefined)
    return parts.map(
      (part) =>
        ({
          kind: part.added ? 'added' : part.removed ? 'removed' : 'same',
          count: part.count ?? part.value.length,
        }) as const,
    );
  const shared = Math.min(before.length, after.length);
  return [
    { kind: 'removed', count: shared },
    { kind: 'added', count: shared },
    ...(before.length > shared ? [{ kind: 'removed', count: before.length - shared } as const] : []),
    ...(after.length > shared ? [{ kind: 'added', count: after.length - shared } as const] : []),
  ] as const;
};

/** The pages past the cap: how many were changed, added or removed, and the first of them (as numbered
 * in the newer version, or in the earlier one for a page removed). */
export interface NotShown {
  pages: number;
  from_page: number;
}

export interface ContractChanges {
  pages: PageChange[];
  not_shown: NotShown | null;
}

/** One entry of the comparison before its lines are read: a run of unchanged pages, or one page's change. */
type Slot =
  | { kind: 'unchanged'; count: number; after_first: number; after_last: number }
  | { kind: 'changed'; before: number; after: number }
  | { kind: 'added'; after: number }
  | { kind: 'removed'; before: number };

/** The comparison's entries in order, from the page alignment alone (no page's lines diffed yet). */
const slotsOf = (runs: ReturnType<typeof alignPages>): Slot[] => {
  const slots: Slot[] = [];
  let b = 0;
  let a = 0;
  for (let index = 0; index < runs.length; index += 1) {
    const run = runs[index] as (typeof runs)[number];
    if (run.kind === 'same') {
      slots.push({ kind: 'unchanged', count: run.count, after_first: a + 1, after_last: a + run.count });
      b += run.count;
      a += run.count;
    } else if (run.kind === 'removed') {
      // Deleted pages followed by inserted ones: the first of each pair are the same page, changed.
      const next = runs[index + 1];
      const inserted = next?.kind === 'added' ? next.count : 0;
      const paired = Math.min(run.count, inserted);
      for (let n = 0; n < paired; n += 1, b += 1, a += 1)
        slots.push({ kind: 'changed', before: b + 1, after: a + 1 });
      for (let n = paired; n < run.count; n += 1, b += 1) slots.push({ kind: 'removed', before: b + 1 });
      for (let n = paired; n < inserted; n += 1, a += 1) slots.push({ kind: 'added', after: a + 1 });
      if (next?.kind === 'added') index += 1;
    } else {
      for (let n = 0; n < run.count; n += 1, a += 1) slots.push({ kind: 'added', after: a + 1 });
    }
  }
  return slots;
};

const pageOf = (slot: Exclude<Slot, { kind: 'unchanged' }>): number =>
  slot.kind === 'removed' ? slot.before : slot.after;

/**
 * What changed from `before` to `after` (each a version's pages in order), page by page: runs of unchanged
 * pages, pages changed (a deleted page next to an inserted one is one page changed, paired in order),
 * pages added and pages removed, up to the cap (`MAX_SHOWN_PAGES` pages and `MAX_CHANGES_BYTES`), the
 * rest counted in `not_shown`. Page numbers are 1-based, as shown.
 */
export const contractChanges = (
  before: ReadonlyArray<Pick<RenderedPage, 'text'>>,
  after: ReadonlyArray<Pick<RenderedPage, 'text'>>,
  cap: { pages: number; bytes: number } = { pages: MAX_SHOWN_PAGES, bytes: MAX_CHANGES_BYTES },
): ContractChanges => {
  const oldLines = before.map(pageLines);
  const newLines = after.map(pageLines);
  const slots = slotsOf(
    alignPages(
      oldLines.map((lines) => comparedLines(lines).join('\n')),
      newLines.map((lines) => comparedLines(lines).join('\n')),
    ),
  );
  const pages: PageChange[] = [];
  let shown = 0;
  let bytes = 0;
  for (let index = 0; index < slots.length; index += 1) {
    const slot = slots[index] as Slot;
    const change: PageChange =
      slot.kind === 'unchanged'
        ? slot
        : slot.kind === 'changed'
          ? { ...slot, lines: lineChanges(oldLines[slot.before - 1] ?? [], newLines[slot.after - 1] ?? []) }
          : slot.kind === 'added'
            ? { ...slot, lines: all('inserted', newLines[slot.after - 1] ?? []) }
            : { ...slot, lines: all('deleted', oldLines[slot.before - 1] ?? []) };
    const size = Buffer.byteLength(JSON.stringify(change), 'utf8');
    if (slot.kind !== 'unchanged' && (shown === cap.pages || bytes + size > cap.bytes)) {
      const rest = slots.slice(index).filter((left) => left.kind !== 'unchanged');
      return { pages, not_shown: { pages: rest.length, from_page: pageOf(slot) } };
    }
    pages.push(change);
    bytes += size;
    if (slot.kind !== 'unchanged') shown += 1;
  }
  return { pages, not_shown: null };
};
