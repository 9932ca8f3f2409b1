// bench -> `npm run bench -- fidelity [folder]`: the first page of every PDF in a folder as the service
// draws it (PdfjsRenderer, its JPEG page image) against `mutool draw` (MuPDF) and, when installed,
// `pdftoppm` (Poppler) at the same width, compared in grayscale: the root mean square error (0 = the same
// pixels, 1 = black for white), against the nearer of the two readers; blank pages (no ink where a
// reader draws some); pages with half the ink or less of the reader's. Without a folder, the project's
// own fixtures: the PDFs of ../shared/fixtures/real-world-pdfs and those test/support makes.
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { PdfjsRenderer } from '../lambdas/adapters/pdf/pdfjs-renderer';
import { contractPdf, rotatedPdf, scannedPdf } from '../test/support/pdfs';
import {
  cjkPdf,
  cutContentPdf,
  headerlessPdf,
  lateHeaderPdf,
  notePdf,
} from '../test/support/reader-fixtures';
import { FileBlobs, installed, runTool } from './render';
import { ratio, round, table } from './report';

const REAL_WORLD_PDFS = new URL('../../shared/fixtures/real-world-pdfs/', import.meta.url);
/** A pixel is ink when its gray level is under half. */
const INK_LEVEL = 0.5;
/** Ink under this share of the page counts as none (a speck of anti-aliasing). */
const BLANK_SHARE = 1e-5;

/** A page as gray levels from 0 (black) to 1 (white), at one width. */
interface Gray {
  width: number;
  height: number;
  levels: Float32Array;
}

const grayOf = async (bytes: Uint8Array, width: number, height: number): Promise<Gray> => {
  const image = await loadImage(Buffer.from(bytes));
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#fff';
  context.fillRect(0, 0, width, height);
  // A reader's page may differ from ours by a pixel in height: scaled to ours.
  context.drawImage(image, 0, 0, width, height);
  const rgba = context.getImageData(0, 0, width, height).data;
  const levels = new Float32Array(width * height);
  for (let i = 0; i < levels.length; i++)
    levels[i] =
      (0.299 * (rgba[i * 4] as number) +
        0.587 * (rgba[i * 4 + 1] as number) +
        0.114 * (rgba[i * 4 + 2] as number)) /
      255;
  return { width, height, levels };
};

const rmse = (a: Gray, b: Gray): number => {
  let sum = 0;
  for (let i = 0; i < a.levels.length; i++) sum += ((a.levels[i] as number) - (b.levels[i] as number)) ** 2;
  return Math.sqrt(sum / a.levels.length);
};

const inkShare = (page: Gray): number => {
  let ink = 0;
  for (const level of page.levels) if (level < INK_LEVEL) ink++;
  return ink / page.levels.length;
};

/** The project's own PDFs, written to `dir`: the real-world fixtures and those the tests make. */
const projectFixtures = async (dir: string): Promise<void> => {
  await mkdir(dir, { recursive: true });
  for (const name of await readdir(REAL_WORLD_PDFS).catch(() => []))
    if (name.endsWith('.pdf')) await copyFile(new URL(name, REAL_WORLD_PDFS), path.join(dir, name));
  const made: Array<[string, () => Promise<Uint8Array>]> = [
    ['contract.pdf', () => contractPdf(2)],
    ['scanned.pdf', () => scannedPdf(1, 300)],
    ['rotated.pdf', rotatedPdf],
    ['late-header.pdf', () => lateHeaderPdf(1500)],
    ['no-header.pdf', headerlessPdf],
    ['cut-content.pdf', () => cutContentPdf(2)],
    ['note.pdf', notePdf],
    ['cjk-not-embedded.pdf', () => cjkPdf('合同目录第一章')],
  ];
  for (const [name, make] of made) await writeFile(path.join(dir, name), await make());
};

interface Row {
  file: string;
  width: number;
  rmseMupdf: number | null;
  rmsePoppler: number | null;
  ink: number;
  inkMupdf: number | null;
  error?: string;
}

/** Page 1 of `file` as the service draws it: its stored page image. */
const serviceImage = async (blobs: FileBlobs, file: string, key: string) => {
  const pdf = await readFile(file);
  await blobs.put(
    key,
    (async function* () {
      yield pdf;
    })(),
  );
  const contract = await new PdfjsRenderer(blobs, { threads: 0 }).render({
    contractReviewId: key,
    version: 1,
    pdfKey: key,
    pdfSize: pdf.byteLength,
    outputPrefix: `${key}-pages/`,
    deadline: Date.now() + 120_000,
  });
  const page = contract.pages[0];
  if (!page) throw new Error('no page');
  return { bytes: await blobs.readRange(page.image.key, 0, 256 * 1024 * 1024), page };
};

/** Page 1 drawn by a tool as a PNG at `width` pixels, or null when the tool fails. */
const toolImage = async (command: string, png: string): Promise<Uint8Array | null> => {
  try {
    await runTool(command);
    return await readFile(png);
  } catch {
    return null;
  }
};

export const fidelitySection = async (
  workDir: string,
  folder: string | undefined,
  progress: (message: string) => void,
): Promise<void> => {
  const dir = path.join(workDir, 'fidelity');
  const source = folder ? path.resolve(folder) : path.join(dir, 'fixtures');
  if (!folder) await projectFixtures(source);
  const hasMutool = await installed('mutool');
  const hasPdftoppm = await installed('pdftoppm');
  const blobs = new FileBlobs(path.join(dir, 'blobs'));
  const files = (await readdir(source)).filter((name) => name.toLowerCase().endsWith('.pdf')).sort();
  const rows: Row[] = [];
  for (const [index, name] of files.entries()) {
    progress(`fidelity: ${index + 1}/${files.length} ${name}…`);
    const file = path.join(source, name);
    try {
      const ours = await serviceImage(blobs, file, `f${index}.pdf`);
      const { width, height } = ours.page.image;
      const gray = await grayOf(ours.bytes, width, height);
      const mupdfPng = path.join(dir, `f${index}-mupdf.png`);
      const mupdf = hasMutool
        ? await toolImage(`mutool draw -q -w ${width} -o '${mupdfPng}' '${file}' 1`, mupdfPng)
        : null;
      const popplerBase = path.join(dir, `f${index}-poppler`);
      const poppler = hasPdftoppm
        ? await toolImage(
            `pdftoppm -q -f 1 -l 1 -singlefile -scale-to-x ${width} -scale-to-y -1 -png '${file}' '${popplerBase}'`,
            `${popplerBase}.png`,
          )
        : null;
      const mupdfGray = mupdf && (await grayOf(mupdf, width, height));
      const popplerGray = poppler && (await grayOf(poppler, width, height));
      rows.push({
        file: name,
        width,
        rmseMupdf: mupdfGray ? rmse(gray, mupdfGray) : null,
        rmsePoppler: popplerGray ? rmse(gray, popplerGray) : null,
        ink: inkShare(gray),
        inkMupdf: mupdfGray ? inkShare(mupdfGray) : null,
      });
    } catch (error) {
      rows.push({
        file: name,
        width: 0,
        rmseMupdf: null,
        rmsePoppler: null,
        ink: 0,
        inkMupdf: null,
        error: (error as Error).message,
      });
    }
  }

  const nearer = (row: Row) => {
    const both = [row.rmseMupdf, row.rmsePoppler].filter((value): value is number => value !== null);
    return both.length > 0 ? Math.min(...both) : null;
  };
  const blank = rows.filter(
    (row) => row.inkMupdf !== null && row.inkMupdf > BLANK_SHARE && row.ink <= BLANK_SHARE,
  );
  const faint = rows.filter(
    (row) => row.inkMupdf !== null && row.inkMupdf > BLANK_SHARE && row.ink <= row.inkMupdf / 2,
  );
  const fixed = (value: number | null, digits = 3) => (value === null ? 'n/a' : value.toFixed(digits));
  console.log(
    `\n8. Fidelity: page 1 of ${rows.length} PDFs (${folder ? source : "the project's own fixtures"}) as the service ` +
      `draws it (JPEG) against mutool draw${hasPdftoppm ? ' and pdftoppm' : ''} at the same width; grayscale RMSE ` +
      `(0 same, 1 black for white); ink = share of pixels darker than mid-gray` +
      `${hasMutool ? '' : '\n   mutool is not installed (apt-get install -y mupdf-tools): no comparison'}\n`,
  );
  console.log(
    table([
      ['file', 'width', 'RMSE mutool', 'RMSE pdftoppm', 'ink', 'ink mutool', 'ink vs mutool', 'note'],
      ...rows.map((row) => [
        row.file,
        String(row.width),
        fixed(row.rmseMupdf),
        fixed(row.rmsePoppler),
        fixed(row.ink, 4),
        fixed(row.inkMupdf, 4),
        row.inkMupdf ? ratio(row.ink / row.inkMupdf) : 'n/a',
        row.error ?? (blank.includes(row) ? 'BLANK' : faint.includes(row) ? 'HALF THE INK OR LESS' : ''),
      ]),
    ]),
  );
  const compared = rows.map(nearer).filter((value): value is number => value !== null);
  const sorted = [...compared].sort((a, b) => a - b);
  const medianRmse = sorted.length > 0 ? (sorted[Math.floor((sorted.length - 1) / 2)] as number) : null;
  const within = compared.filter((value) => value <= 0.1).length;
  console.log(
    `\n   median RMSE against the nearer reader ${fixed(medianRmse)}; within 0.10: ${within} of ${compared.length}; ` +
      `blank where MuPDF draws: ${blank.length}; half the ink or less: ${faint.length}; not drawn: ` +
      `${rows.filter((row) => row.error).length}`,
  );
  console.log(
    `\n${JSON.stringify({
      fidelity: {
        folder: folder ? source : 'project fixtures',
        files: rows.length,
        mutool_installed: hasMutool,
        pdftoppm_installed: hasPdftoppm,
        median_rmse_nearer: medianRmse === null ? null : round(medianRmse, 4),
        within_0_10: within,
        blank: blank.map((row) => row.file),
        half_the_ink_or_less: faint.map((row) => row.file),
        failed: rows.filter((row) => row.error).map((row) => ({ file: row.file, error: row.error })),
        rows: rows.map((row) => ({
          file: row.file,
          rmse_mutool: row.rmseMupdf === null ? null : round(row.rmseMupdf, 4),
          rmse_pdftoppm: row.rmsePoppler === null ? null : round(row.rmsePoppler, 4),
          ink: round(row.ink, 5),
          ink_mutool: row.inkMupdf === null ? null : round(row.inkMupdf, 5),
        })),
      },
    })}`,
  );
};
