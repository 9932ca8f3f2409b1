// pages -> the hosted contract viewer as static files, made from a rendered contract: an
// index.html, its stylesheet, and the list of stored blobs (page images, thumbnails, the PDF) to place
// beside them. Pure: the publisher writes the result (publication.ts), the pages host or CloudFront
// serves it. Every path is relative to the publication's base (`/{slug}/`).
//
// The parts every page that shows the contract shares (the review and snapshot pages too) are built by
// the exported helpers here: the page sections with their text layer and its stylesheet rules, the
// thumbnails, the PDF and its download link, the header, the stylesheet file and the whole output.
//
// The text layer: each page's text runs, in reading order, as transparent spans over the page image,
// placed by a class per run in the stylesheet (left/top in percent of the page, font size in `cqw` of
// the page width), so the browser's find, selection and screen readers all read real text.
import { createHash } from 'node:crypto';
import {
  type PageImage,
  type PageProblem,
  pageProblems,
  type RenderedContract,
  type RenderedPage,
  type TextRun,
} from '../core/rendered-contract';
import { cssNumber, escapeHtml, safeFileName } from './html';
import { LOCAL_TIME_JS } from './local-time';
import { ICON_SVG } from './plain-style';
import { documentHead } from './security';
import { fontFaceRule, fontFile, subsetsFor, textWidthEm } from './text-layer-font';
import { textView } from './text-view';
import { VIEWER_BASE_CSS } from './viewer-style';

export interface ViewerInput {
  contract: RenderedContract;
  /** The page's heading, such as the contract's external reference (from a request; escaped here). */
  title: string;
  /** The organisation that sent the contract (escaped here); null when the environment has no name for it. */
  sender: string | null;
  /** When this version went live (ISO 8601). */
  publishedAt: string;
  /** Blob key of the version's PDF, offered for download. */
  pdfKey: string;
}

/** A file made here (or shipped with the pages, like the text layer's font), to store at `{base}/{path}`. */
export interface ViewerFile {
  path: string;
  contentType: string;
  body: string | Uint8Array;
}

/** A stored blob to copy to `{base}/{path}`. */
export interface ViewerCopy {
  path: string;
  contentType: string;
  fromKey: string;
}

export interface ViewerOutput {
  /** `index.html` comes last: writing it is what makes a version live (see publication.ts). */
  files: ViewerFile[];
  /** Blobs the page refers to; they must be in place before `index.html` is written. */
  copies: ViewerCopy[];
}

/** The page at the publication's base path. */
export const INDEX_FILE = 'index.html';

const EXTENSIONS: Record<PageImage['contentType'], string> = {
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/png': 'png',
};

const extensionOf = (image: PageImage): string => EXTENSIONS[image.contentType];

/**
 * A `<time>` element for an ISO 8601 instant, shown in UTC (local-time.ts shows it in the reader's own
 * time zone where script runs); throws, naming `field`, when `iso` is not a
 * date-time, so an unreadable time is refused rather than shown.
 */
export const timeElement = (iso: string, field: string): string => {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) throw new Error(`${field} is not a date-time: ${iso}`);
  const text = new Intl.DateTimeFormat('en-GB', {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(time);
  return `<time datetime="${time.toISOString()}">${escapeHtml(`${text} UTC`)}</time>`;
};

const runClass = (page: number, index: number): string => `t${page}-${index}`;

/**
 * One run's rule. The font size is the run's height as a fraction of the page height, turned into a
 * fraction of the page width (the container's `cqw`). The run is stretched from its width in the
 * layer's font (known metrics, so no script has to measure it) to the width the PDF gives it, so that
 * a selection covers the drawn words whatever font the PDF used.
 */
const runRule = (page: RenderedPage, run: TextRun, className: string): string => {
  const aspect = page.heightPoints / page.widthPoints;
  const fontOfWidth = run.height * aspect;
  const natural = textWidthEm(run.text) * fontOfWidth;
  const stretch = natural > 0 && run.width > 0 ? Math.min(3, Math.max(0.3, run.width / natural)) : 1;
  return (
    `.${className}{left:${cssNumber(run.x * 100)}%;top:${cssNumber(run.y * 100)}%;` +
    `font-size:${cssNumber(fontOfWidth * 100)}cqw;transform:scaleX(${cssNumber(stretch)})}`
  );
};

/** Runs worth a span: whitespace-only runs (line ends some PDFs emit) would only add empty boxes. */
const shownRuns = (page: RenderedPage): Array<{ run: TextRun; index: number }> =>
  page.text.map((run, index) => ({ run, index: index + 1 })).filter(({ run }) => run.text.trim() !== '');

/** Throws unless the contract's pages are numbered 1..pageCount, each with a size, and its version is valid. */
export const checkContract = (contract: RenderedContract): void => {
  if (contract.pages.length !== contract.pageCount)
    throw new Error(`pageCount ${contract.pageCount} but ${contract.pages.length} pages`);
  contract.pages.forEach((page, i) => {
    if (page.number !== i + 1) throw new Error(`page ${i + 1} is numbered ${page.number}`);
    if (!(page.widthPoints > 0 && page.heightPoints > 0)) throw new Error(`page ${page.number} has no size`);
  });
  if (!Number.isInteger(contract.version) || contract.version < 1)
    throw new Error(`version must be a positive integer: ${contract.version}`);
};

/**
 * The folder of a version. Everything of a version lives under its own folder, so those paths never
 * change content and can be cached for good; only index.html, at the stable link, changes from version
 * to version.
 */
export const versionFolder = (contract: RenderedContract): string => `v${contract.version}`;

/** Where the version's PDF is placed beside the page. */
const pdfPath = (contract: RenderedContract): string => `${versionFolder(contract)}/contract.pdf`;

/** The version's PDF: the blob to copy beside the page, and the paragraph offering it for download. */
export const contractPdf = (
  input: Pick<ViewerInput, 'contract' | 'title' | 'pdfKey'>,
): { copy: ViewerCopy; download: string } => {
  const { version } = input.contract;
  const path = pdfPath(input.contract);
  return {
    copy: { path, contentType: 'application/pdf', fromKey: input.pdfKey },
    download:
      `<p class="actions"><a class="download" href="${escapeHtml(path)}" ` +
      `download="${escapeHtml(`${safeFileName(input.title, 'contract')}-v${version}.pdf`)}" type="application/pdf">` +
      `Download the PDF</a></p>`,
  };
};

/** The contract's pages, ready to place in a page. */
export interface ContractPages {
  /** One `<section class="page">` per page, its image with the text layer over it. */
  sections: string[];
  /** The thumbnails, a `<nav>` of links to the pages. */
  thumbnails: string[];
  /** The text layer's `@font-face` rules, then one rule per text run shown, placing its span. */
  textRules: string[];
  /** The text layer's font files the text needs, to store beside the stylesheet. */
  fontFiles: ViewerFile[];
  /** Each page's image and thumbnail, to copy beside the page. */
  copies: ViewerCopy[];
}

/** The layer's font subsets that `texts` need, as files in `folder` and the rules declaring them. */
const textLayerFont = (folder: string, texts: string[]): { rules: string[]; files: ViewerFile[] } => {
  const rules: string[] = [];
  const files: ViewerFile[] = [];
  for (const subset of subsetsFor(texts)) {
    const file = fontFile(subset);
    // Relative to the stylesheet, which lives in the same folder.
    rules.push(fontFaceRule(subset, file.name));
    files.push({ path: `${folder}/${file.name}`, contentType: 'font/woff2', body: file.bytes });
  }
  return { rules, files };
};

/** The contract's pages exactly as the viewer shows them; the contract must have passed `checkContract`. */
export const contractPages = (contract: RenderedContract): ContractPages => {
  const folder = versionFolder(contract);
  const total = contract.pageCount;
  const result: ContractPages = { sections: [], thumbnails: [], textRules: [], fontFiles: [], copies: [] };
  const thumbs: string[] = [];
  const texts: string[] = [];
  for (const page of contract.pages) {
    const n = page.number;
    const imagePath = `${folder}/page-${n}.${extensionOf(page.image)}`;
    const thumbPath = `${folder}/thumb-${n}.${extensionOf(page.thumbnail)}`;
    result.copies.push({ path: imagePath, contentType: page.image.contentType, fromKey: page.image.key });
    result.copies.push({
      path: thumbPath,
      contentType: page.thumbnail.contentType,
      fromKey: page.thumbnail.key,
    });

    thumbs.push(
      `<li><a href="#page-${n}"><img src="${escapeHtml(thumbPath)}" alt="" ` +
        `width="${page.thumbnail.width}" height="${page.thumbnail.height}" loading="lazy" decoding="async">` +
        `Page ${n}</a></li>`,
    );

    const problems = page.problems ?? [];
    const runs = shownRuns(page);
    const spans = runs.map(({ run, index }) => {
      const className = runClass(n, index);
      result.textRules.push(runRule(page, run, className));
      texts.push(run.text);
      return `<span class="${className}">${escapeHtml(run.text)}</span>`;
    });
    // The first page is what the reader sees at once; the rest load as they come near the screen.
    const loading = n === 1 ? 'loading="eager" fetchpriority="high"' : 'loading="lazy"';
    result.sections.push(
      [
        `<section class="page" id="page-${n}" aria-labelledby="page-${n}-title">`,
        `<h2 class="page-title" id="page-${n}-title">Page ${n}<span class="visually-hidden"> of ${total}</span></h2>`,
        '<div class="sheet">',
        `<img class="scan" src="${escapeHtml(imagePath)}" alt="${problems.includes('image_unavailable') ? '' : `Page ${n} of ${total}`}" ` +
          `width="${page.image.width}" height="${page.image.height}" ${loading} decoding="async">`,
        // A space between runs keeps words apart in find, copied text and speech.
        spans.length > 0
          ? `<div class="text-layer">${spans.join(' ')}</div>`
          : problems.length > 0
            ? ''
            : '<p class="visually-hidden">No text could be read from this page.</p>',
        ...(problems.length > 0 ? [pageNotice(n, problems, pdfPath(contract))] : []),
        '</div>',
        '</section>',
      ].join('\n'),
    );
  }
  result.thumbnails = ['<nav class="thumbs" aria-label="Pages">', `<ol>${thumbs.join('')}</ol>`, '</nav>'];
  const font = textLayerFont(folder, texts);
  result.textRules.unshift(...font.rules);
  result.fontFiles = font.files;
  return result;
};

/** What a page's notice says of each problem. */
const PROBLEM_TEXT: Record<PageProblem, string> = {
  image_unavailable: 'could not be displayed',
  image_incomplete: 'is shown without some of its pictures: they could not be displayed',
  text_unavailable: 'has no text to search or select: it could not be read',
};

/** The notice over a page shown in part: what is missing, and the PDF that has it all. */
const pageNotice = (n: number, problems: PageProblem[], pdf: string): string =>
  `<p class="page-notice${problems.includes('image_unavailable') ? ' over' : ''}" role="note">` +
  `Page ${n} ${problems.map((problem) => PROBLEM_TEXT[problem]).join(', and ')}. ` +
  `<a href="${escapeHtml(pdf)}">Download the PDF</a> to see it as sent.</p>`;

/** Items in words: "4", "4 and 7", "4, 7 and 9". */
const inWords = (items: string[]): string =>
  items.length === 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

/**
 * The banner's notice when pages are shown in part (none otherwise): which pages could not be displayed
 * and which have no text, linking to each, with the PDF to download.
 */
export const problemsNotice = (contract: RenderedContract): string[] => {
  const problems = pageProblems(contract);
  if (problems.length === 0) return [];
  const sentence = (problem: PageProblem, says: (many: boolean) => string): string[] => {
    const numbers = problems.filter((page) => page.problems.includes(problem)).map((page) => page.number);
    if (numbers.length === 0) return [];
    const links = numbers.map((n) => `<a href="#page-${n}">${n}</a>`);
    const many = numbers.length > 1;
    return [`${many ? 'Pages' : 'Page'} ${inWords(links)} ${says(many)}.`];
  };
  return [
    '<p class="notice" role="status">',
    ...sentence(
      'image_unavailable',
      (many) => `could not be displayed; ${many ? 'they are' : 'it is'} in the PDF`,
    ),
    ...sentence(
      'image_incomplete',
      (many) => `${many ? 'are' : 'is'} shown without some of ${many ? 'their' : 'its'} pictures`,
    ),
    ...sentence('text_unavailable', (many) => `${many ? 'have' : 'has'} no text to search or select`),
    'Download the PDF to see the contract as sent.</p>',
  ];
};

/** The zoom levels of the pages, beside `Fit width` (the default): a page's width in percent. */
export const ZOOM_LEVELS = [150, 200, 300] as const;

/**
 * The ways to read the contract, without script: `Pages` (the drawn pages, fit to the width, with zoom
 * radios the stylesheet reads) and `Text` (the reflowed text, shown while it is the address's target).
 */
const readingControls = (): string[] => [
  '<div class="controls">',
  '<nav class="views" aria-label="Read the contract as">',
  '<a href="#pages">Pages</a>',
  '<a href="#text">Text</a>',
  '</nav>',
  '<fieldset class="zoom">',
  '<legend>Page size</legend>',
  '<input type="radio" name="zoom" id="zoom-fit" checked><label for="zoom-fit">Fit width</label>',
  ...ZOOM_LEVELS.map(
    (level) =>
      `<input type="radio" name="zoom" id="zoom-${level}"><label for="zoom-${level}">${level}%</label>`,
  ),
  '</fieldset>',
  '</div>',
];

/**
 * The banner of a page showing the contract: its title and who sent it (escaped here), version,
 * publication time and page count, then `extra` (markup the caller built), then the download link and
 * the reading controls.
 */
export const contractHeader = (
  input: Pick<ViewerInput, 'contract' | 'title' | 'sender' | 'publishedAt'>,
  download: string,
  extra: string[] = [],
): string[] => {
  const { version, pageCount: total } = input.contract;
  const pages = `${total} ${total === 1 ? 'page' : 'pages'}`;
  return [
    '<header class="top">',
    `<h1>${escapeHtml(input.title)}</h1>`,
    ...(input.sender === null ? [] : [`<p class="sender">From ${escapeHtml(input.sender)}</p>`]),
    `<p class="meta">Version ${version} · published ${timeElement(input.publishedAt, 'publishedAt')} · ${pages}</p>`,
    ...extra,
    download,
    ...readingControls(),
    '</header>',
  ];
};

/**
 * A page's output: `files` (made beside it, such as the text layer's font) and its stylesheet, under the
 * version's folder and named by the hash of their content (so a changed file is a new path), then
 * `index.html`, whose `<body>` holds `body` (markup the caller built) and whose `<title>` is `title`
 * (text, escaped). `index.html` comes last, as `writeViewer` requires.
 */
export const pageOutput = (
  contract: RenderedContract,
  page: {
    name: string;
    title: string;
    css: string[];
    body: string[];
    files: ViewerFile[];
    copies: ViewerCopy[];
  },
): ViewerOutput => {
  const stylesheet = page.css.join('\n');
  const hash = createHash('sha256').update(stylesheet).digest('hex').slice(0, 16);
  const cssPath = `${versionFolder(contract)}/${page.name}-${hash}.css`;
  // The icon beside the page (a browser would otherwise ask the origin for /favicon.ico).
  const iconPath = `${versionFolder(contract)}/icon.svg`;
  const scriptPath = `${versionFolder(contract)}/local-time.js`;
  const html = [
    ...documentHead(page.title, [
      `<link rel="icon" href="${escapeHtml(iconPath)}" type="image/svg+xml">`,
      `<script src="${escapeHtml(scriptPath)}" defer></script>`,
      `<link rel="stylesheet" href="${escapeHtml(cssPath)}">`,
    ]),
    '<body>',
    ...page.body,
    '</body>',
    '</html>',
    '',
  ].join('\n');
  return {
    files: [
      ...page.files,
      { path: iconPath, contentType: 'image/svg+xml', body: ICON_SVG },
      { path: scriptPath, contentType: 'text/javascript; charset=utf-8', body: LOCAL_TIME_JS },
      { path: cssPath, contentType: 'text/css; charset=utf-8', body: stylesheet },
      { path: INDEX_FILE, contentType: 'text/html; charset=utf-8', body: html },
    ],
    copies: page.copies,
  };
};

/** The contract viewer of one version. */
export const renderViewer = (input: ViewerInput): ViewerOutput => {
  const { contract } = input;
  checkContract(contract);
  const pdf = contractPdf(input);
  const pages = contractPages(contract);
  return pageOutput(contract, {
    name: 'viewer',
    title: `${input.title} – contract`,
    css: [VIEWER_BASE_CSS, ...pages.textRules],
    files: pages.fontFiles,
    copies: [pdf.copy, ...pages.copies],
    body: [
      '<a class="skip" href="#pages">Skip to the contract pages</a>',
      ...contractHeader(input, pdf.download, problemsNotice(contract)),
      '<div class="layout">',
      ...pages.thumbnails,
      '<main class="contract">',
      '<div class="pages" id="pages">',
      ...pages.sections,
      '</div>',
      ...textView(contract),
      '</main>',
      '</div>',
    ],
  });
};
