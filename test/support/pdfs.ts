// test support -> PDFs for tests: a realistic text contract, a scanned one, a long one, a PDF of any size
// written by streaming, and the bad ones (not a PDF, truncated, no pages, password protected, an image
// too large or too damaged to draw).
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { createCanvas } from '@napi-rs/canvas';
import {
  concatTransformationMatrix,
  degrees,
  drawObject,
  PDFDocument,
  type PDFFont,
  PDFPage,
  type PDFRef,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts,
} from 'pdf-lib';

const CLAUSES = [
  'The Vendor agrees to sell and the Purchaser agrees to buy the Property for the Price on the terms of this contract.',
  'The Purchaser must pay the Deposit of ten per cent of the Price to the Vendor’s agent as stakeholder on the day of sale.',
  'Settlement is due on the Settlement Date, when the balance of the Price is paid against the transfer of the land.',
  'The Property is sold subject to the easements, covenants and restrictions shown on the title and the plan of subdivision.',
  'The Vendor must deliver vacant possession of the Property at settlement together with all keys and security devices.',
  'If the Purchaser defaults in payment, the Vendor may end this contract by written notice and keep the Deposit.',
  'Rates, taxes and owners corporation charges are apportioned between the parties as at the Settlement Date.',
  'The Purchaser may inspect the Property once within the seven days before settlement to check its condition.',
  'This contract is subject to the Purchaser obtaining approval of a loan of eighty per cent of the Price within 14 days.',
  'Any notice under this contract must be in writing and given to the party or its legal practitioner.',
];

/** Lines of text wrapped to `width` points in `font` at `size`. */
const wrap = (text: string, font: PDFFont, size: number, width: number): string[] => {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) > width && line) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
};

/**
 * An A4 contract for the sale of land of `pages` pages (at least 1), with parties, property, price and
 * numbered clauses, made with pdf-lib. Every page has real text, so text extraction finds words.
 * `amend` rewrites clauses (a changed contract sent as a new version): given a clause's number and text,
 * it answers the text to write.
 */
export const contractPdf = async (
  pages = 3,
  amend: (clause: number, text: string) => string = (_clause, text) => text,
): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  doc.setTitle('Contract of Sale of Real Estate');
  doc.setAuthor('Hayes & Partners Conveyancing');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const details = [
    'Vendor: Margaret Ellen Hayes of 22 Orchard Street, Hawthorn VIC 3122',
    'Purchaser: Daniel James Okafor and Priya Nair of 5/140 Lygon Street, Carlton VIC 3053',
    'Property: 14 Wattle Grove, Kew VIC 3101, being Lot 7 on Plan of Subdivision 412981K',
    'Price: $1,250,000   Deposit: $125,000   Settlement Date: 60 days after the day of sale',
  ];
  let clause = 1;
  for (let n = 1; n <= Math.max(1, pages); n++) {
    const page = doc.addPage([595.28, 841.89]);
    let y = 790;
    const write = (text: string, size = 11, f = font) => {
      for (const line of wrap(text, f, size, 495)) {
        page.drawText(line, { x: 50, y, size, font: f });
        y -= size + 5;
      }
    };
    if (n === 1) {
      write('CONTRACT OF SALE OF REAL ESTATE', 16, bold);
      y -= 8;
      for (const line of details) write(line);
      y -= 8;
    }
    while (y > 120) {
      write(`Clause ${clause}.`, 11, bold);
      write(amend(clause, CLAUSES[(clause - 1) % CLAUSES.length] as string));
      y -= 6;
      clause++;
    }
    page.drawText(`Page ${n} of ${pages}`, { x: 270, y: 40, size: 9, font });
  }
  return doc.save();
};

/** A4 in points. */
const A4: [number, number] = [595.28, 841.89];

/**
 * A JPEG that looks like a scanned page of text at `dpi` (A4): grey lines of word-shaped marks and
 * speckles, different for each `seed`. Made with @napi-rs/canvas.
 */
export const scannedPageJpeg = (seed: number, dpi = 150): Uint8Array => {
  const width = Math.round((A4[0] / 72) * dpi);
  const height = Math.round((A4[1] / 72) * dpi);
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  let state = seed * 7919 + 1;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  context.fillStyle = '#f6f4ee';
  context.fillRect(0, 0, width, height);
  const unit = dpi / 72;
  context.fillStyle = '#2b2b2b';
  for (let y = 60 * unit; y < height - 60 * unit; y += 16 * unit) {
    for (let x = 50 * unit; x < width - 60 * unit; ) {
      const word = (15 + random() * 45) * unit;
      context.fillRect(x, y, Math.min(word, width - 50 * unit - x), 7 * unit);
      x += word + 5 * unit;
    }
  }
  context.fillStyle = '#9a9a9a';
  for (let i = 0; i < 2000; i++) context.fillRect(random() * width, random() * height, unit, unit);
  return canvas.encodeSync('jpeg', 75);
};

/**
 * A scanned contract: `pages` A4 pages, each one full-page JPEG image (its own image object) and no text.
 */
export const scannedPdf = async (pages = 1, dpi = 150): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  for (let n = 1; n <= pages; n++) {
    const image = await doc.embedJpg(scannedPageJpeg(n, dpi));
    doc.addPage(A4).drawImage(image, { x: 0, y: 0, width: A4[0], height: A4[1] });
  }
  return doc.save();
};

/**
 * A PDF of `count` pages made cheaply from page 1 of `source`: the first is copied, the others are page
 * objects sharing its content stream and resources (as a long generated document would).
 */
export const repeatedPagePdf = async (source: Uint8Array, count: number): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const [first] = await doc.copyPages(await PDFDocument.load(source), [0]);
  if (!first) throw new Error('The source PDF has no page');
  doc.addPage(first);
  for (let n = 2; n <= count; n++) {
    const node = first.node.clone();
    doc.addPage(PDFPage.of(node, doc.context.register(node), doc));
  }
  return doc.save({ objectsPerTick: Number.POSITIVE_INFINITY });
};

/**
 * Draws, on each page of `doc` numbered in `pages`, an image that claims to be `side` pixels square but
 * holds three bytes (pdf.js pads the rest): by default 100,000 square, far over what pdf.js may decode,
 * so those pages are drawn without it.
 */
const addOversizedImage = (doc: PDFDocument, pages: readonly number[], side = 100_000): void => {
  const image = doc.context.register(
    doc.context.stream(new Uint8Array(3), {
      Type: 'XObject',
      Subtype: 'Image',
      Width: side,
      Height: side,
      ColorSpace: 'DeviceRGB',
      BitsPerComponent: 8,
    }),
  );
  addToPages(doc, pages, 'Oversized', image);
};

/** Draws `image` (an image XObject) on each page of `doc` numbered in `pages`, 200 points square. */
const addToPages = (doc: PDFDocument, pages: readonly number[], name: string, image: PDFRef): void => {
  for (const number of pages) {
    const page = doc.getPage(number - 1);
    const key = page.node.newXObject(name, image);
    page.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(200, 0, 0, 200, 100, 300),
      drawObject(key),
      popGraphicsState(),
    );
  }
};

/**
 * A contract of `pages` pages whose pages `oversized` carry an image `side` pixels square: by default
 * too large to decode, so those pages are drawn without it (their text is still read).
 */
export const oversizedImagePdf = async (
  pages = 3,
  oversized: readonly number[] = [2],
  side?: number,
): Promise<Uint8Array> => {
  const doc = await PDFDocument.load(await contractPdf(pages));
  addOversizedImage(doc, oversized, side);
  return doc.save();
};

/**
 * A contract of `pages` pages whose pages `damaged` carry a JPEG image of random bytes: pdf.js cannot
 * decode it, and draws those pages without it.
 */
export const damagedImagePdf = async (pages = 3, damaged: readonly number[] = [2]): Promise<Uint8Array> => {
  const doc = await PDFDocument.load(await contractPdf(pages));
  const image = doc.context.register(
    doc.context.stream(randomBytes(2048), {
      Type: 'XObject',
      Subtype: 'Image',
      Width: 400,
      Height: 300,
      ColorSpace: 'DeviceRGB',
      BitsPerComponent: 8,
      Filter: 'DCTDecode',
    }),
  );
  addToPages(doc, damaged, 'Damaged', image);
  return doc.save();
};

/**
 * `pages` A4 pages without text, each drawn without the only image on it (too large to decode):
 * nothing can be shown, so processing fails (`processing_error`).
 */
export const undrawablePdf = async (pages = 3): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([595.28, 841.89]);
  addOversizedImage(
    doc,
    Array.from({ length: pages }, (_, i) => i + 1),
  );
  return doc.save();
};

/** A one-page contract turned a quarter clockwise (`/Rotate 90`): landscape on screen. */
export const rotatedPdf = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.load(await contractPdf(1));
  doc.getPage(0).setRotation(degrees(90));
  return doc.save();
};

/** A PDF with no pages (an empty page tree): opens, but has nothing to show. */
export const zeroPagePdf = async (): Promise<Uint8Array> =>
  (await PDFDocument.create()).save({ addDefaultPage: false });

/** The first `fraction` of a contract PDF, as a cut-off upload would leave it: no page tree survives. */
export const truncatedPdf = async (fraction = 0.5): Promise<Uint8Array> => {
  const whole = await contractPdf(3);
  return whole.subarray(0, Math.floor(whole.length * fraction));
};

/** Bytes that are not a PDF at all: random noise, or text such as an HTML error page. */
export const notAPdf = (kind: 'random' | 'html' = 'random'): Uint8Array =>
  kind === 'random'
    ? randomBytes(4096)
    : Buffer.from('<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>\n');

/** A PDF header followed by noise: looks like a PDF to a byte sniffer, cannot be opened. */
export const damagedPdf = (): Uint8Array =>
  Buffer.concat([Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), randomBytes(4096)]);

/**
 * Writes a valid one-page PDF of exactly `size` bytes (at least 16 KiB) to `path`, streaming: most of it
 * is one incompressible grayscale image (random bytes, written 1 MiB at a time, never all in memory)
 * that the page lists in its resources but does not draw. Cross-reference offsets are exact, so a reader
 * needs only the end of the file and a few small objects to open it and load the page.
 */
export const writeLargePdf = async (path: string, size: number): Promise<void> => {
  if (size < 16 * 1024) throw new Error('writeLargePdf makes PDFs of at least 16 KiB');
  const width = 4096;
  const content = 'BT /F1 18 Tf 72 770 Td (Contract of Sale of Real Estate - scanned copy) Tj ET';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> /XObject << /Im0 6 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const header = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  let prefix = header;
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(prefix, 'latin1'));
    prefix += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const prefixLength = Buffer.byteLength(prefix, 'latin1');
  const imageHead = (height: number) =>
    `6 0 obj\n<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Length ${width * height} >>\nstream\n`;
  const imageTail = '\nendstream\nendobj\n';
  const xref = (imageOffset: number) =>
    `xref\n0 7\n0000000000 65535 f \n${[...offsets, imageOffset].map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  const trailer = (xrefOffset: number) =>
    `trailer\n<< /Size 7 /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;

  // The xref section's length is fixed; the trailer's depends on the digits of its own offset.
  const xrefLength = xref(prefixLength).length;
  let xrefOffset = size - xrefLength - trailer(size).length;
  if (xrefOffset + xrefLength + trailer(xrefOffset).length !== size) xrefOffset += 1;
  let height = Math.floor((xrefOffset - prefixLength - imageHead(1).length - imageTail.length) / width);
  while (prefixLength + imageHead(height).length + width * height + imageTail.length > xrefOffset) height--;
  const padding = xrefOffset - (prefixLength + imageHead(height).length + width * height + imageTail.length);

  const out = createWriteStream(path);
  const write = async (chunk: Uint8Array | string) => {
    if (!out.write(typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk))
      await once(out, 'drain');
  };
  await write(prefix + imageHead(height));
  const chunk = 1024 * 1024;
  for (let left = width * height; left > 0; left -= chunk) await write(randomBytes(Math.min(chunk, left)));
  await write(imageTail + ' '.repeat(Math.max(0, padding - 1)) + (padding > 0 ? '\n' : ''));
  await write(xref(prefixLength) + trailer(xrefOffset));
  out.end();
  await once(out, 'finish');
};

// PDF standard security handler, revision 2 (RC4, 40-bit key): ISO 32000-1 §7.6.3, algorithms 2 to 4.
const PASSWORD_PADDING = Buffer.from(
  '28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a',
  'hex',
);

const rc4 = (key: Uint8Array, data: Uint8Array): Buffer => {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + (s[i] as number) + (key[i % key.length] as number)) & 255;
    [s[i], s[j]] = [s[j] as number, s[i] as number];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + (s[i] as number)) & 255;
    [s[i], s[j]] = [s[j] as number, s[i] as number];
    out[n] = (data[n] as number) ^ (s[((s[i] as number) + (s[j] as number)) & 255] as number);
  }
  return out;
};

const md5 = (...parts: Uint8Array[]) => {
  const hash = createHash('md5');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

const padPassword = (password: string) =>
  Buffer.concat([Buffer.from(password, 'latin1'), PASSWORD_PADDING]).subarray(0, 32);

/**
 * A one-page PDF encrypted with a user password (standard security handler, RC4 40-bit), built by hand
 * because pdf-lib cannot encrypt. A reader must ask for the password before it can open it.
 */
export const encryptedPdf = (userPassword = 'buyer-secret', ownerPassword = 'owner-secret'): Uint8Array => {
  const id = randomBytes(16);
  const permissions = -4;
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const owner = rc4(md5(padPassword(ownerPassword)).subarray(0, 5), padPassword(userPassword));
  const key = md5(padPassword(userPassword), owner, p, id).subarray(0, 5);
  const user = rc4(key, PASSWORD_PADDING);
  const objectKey = (num: number) =>
    md5(key, Buffer.from([num & 255, (num >> 8) & 255, (num >> 16) & 255, 0, 0])).subarray(0, 10);

  const content = rc4(objectKey(4), Buffer.from('BT /F1 24 Tf 72 700 Td (Confidential contract) Tj ET'));
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  const offsets: number[] = [];
  const length = () => parts.reduce((sum, b) => sum + b.length, 0);
  const add = (num: number, body: Buffer | string) => {
    offsets[num] = length();
    parts.push(
      Buffer.from(`${num} 0 obj\n`),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n'),
    );
  };
  add(1, '<< /Type /Catalog /Pages 2 0 R >>');
  add(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  add(
    3,
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
  );
  add(
    4,
    Buffer.concat([
      Buffer.from(`<< /Length ${content.length} >>\nstream\n`),
      content,
      Buffer.from('\nendstream'),
    ]),
  );
  add(5, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  add(
    6,
    `<< /Filter /Standard /V 1 /R 2 /O <${owner.toString('hex')}> /U <${user.toString('hex')}> /P ${permissions} >>`,
  );
  const xrefOffset = length();
  const entries = offsets.slice(1).map((o) => `${String(o).padStart(10, '0')} 00000 n \n`);
  parts.push(
    Buffer.from(
      `xref\n0 7\n0000000000 65535 f \n${entries.join('')}trailer\n<< /Size 7 /Root 1 0 R /Encrypt 6 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>] >>\nstartxref\n${xrefOffset}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(parts);
};
