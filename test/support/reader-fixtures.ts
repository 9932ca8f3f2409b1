// test -> PDFs of shapes readers of record (MuPDF, Poppler) draw that the renderer once did not: a header
// that is late or missing, pages whose content streams are cut off, a note without an appearance, and
// text in a CJK font the file does not embed. Made here with pdf-lib, byte for byte known.
import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFString } from 'pdf-lib';
import { contractPdf } from './pdfs';

const A4 = [595.28, 841.89] as [number, number];

/** A one-page contract with `junk` bytes of a mail gateway's banner before its `%PDF-` header. */
export const lateHeaderPdf = async (junk = 1500): Promise<Uint8Array> => {
  const banner = `X-Scanned-By: mail gateway\n${'#'.repeat(junk)}\n`.slice(0, junk);
  return Buffer.concat([Buffer.from(banner, 'latin1'), await contractPdf(1)]);
};

/** A one-page contract whose `%PDF-1.x` header is overwritten (same length, so every offset holds). */
export const headerlessPdf = async (): Promise<Uint8Array> => {
  const pdf = Buffer.from(await contractPdf(1));
  const header = /^%PDF-\d\.\d/.exec(pdf.toString('latin1', 0, 16))?.[0] ?? '';
  if (!header) throw new Error('contractPdf has no header to overwrite');
  pdf.write('%'.padEnd(header.length, '-'), 0, 'latin1');
  return pdf;
};

/**
 * Four pages, each a blue box and a line of text in a content stream whose last bytes are damaged: the
 * Flate data stops short. MuPDF draws what decodes ("treating as end of file").
 */
export const cutContentPdf = async (pages = 4): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const font = doc.context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica' });
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage(A4);
    page.node.setFontDictionary(PDFName.of('F1'), doc.context.register(font));
    const content = Buffer.from(
      `0 0 1 rg 50 500 300 200 re f BT /F1 24 Tf 72 750 Td (Page ${i + 1} of ${pages}) Tj ET\n`.repeat(3),
    );
    const deflated = deflateSync(content);
    const damaged = Buffer.concat([
      deflated.subarray(0, deflated.length - 6),
      Buffer.from([0xff, 0xee, 0, 0x13]),
    ]);
    page.node.set(
      PDFName.of('Contents'),
      doc.context.register(doc.context.stream(damaged, { Filter: 'FlateDecode' })),
    );
  }
  return Buffer.from(await doc.save());
};

/** Where the note of `notePdf` is, in points from the page's bottom-left corner: its top-left corner. */
export const NOTE_AT = { x: 400, y: 600 } as const;

/** One A4 page with nothing on it but a note (a Text annotation) without an appearance stream. */
export const notePdf = async (): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const page = doc.addPage(A4);
  const note = doc.context.obj({
    Type: 'Annot',
    Subtype: 'Text',
    Rect: [NOTE_AT.x, NOTE_AT.y - 20, NOTE_AT.x + 20, NOTE_AT.y],
    Contents: PDFString.of('Check the settlement date with the vendor.'),
    Name: 'Comment',
    F: 4,
  });
  page.node.set(PDFName.of('Annots'), doc.context.obj([doc.context.register(note)]));
  return Buffer.from(await doc.save());
};

/** Where `cjkPdf` draws its characters: the baseline's left end, in points, and the size. */
export const CJK_LINE = { x: 72, y: 700, size: 36, advance: 48 } as const;

/**
 * One A4 page with `text` set character by character, `CJK_LINE.advance` points apart, in STSong-Light,
 * the Adobe-GB1 font readers are expected to have (the file embeds no font), as a Chinese contents page
 * in a Song face is.
 */
export const cjkPdf = async (text: string): Promise<Uint8Array> => {
  const doc = await PDFDocument.create();
  const page = doc.addPage(A4);
  const { context } = doc;
  const descendant = context.obj({
    Type: 'Font',
    Subtype: 'CIDFontType0',
    BaseFont: 'STSong-Light',
    CIDSystemInfo: { Registry: PDFString.of('Adobe'), Ordering: PDFString.of('GB1'), Supplement: 4 },
    FontDescriptor: context.obj({
      Type: 'FontDescriptor',
      FontName: 'STSong-Light',
      Flags: 6,
      FontBBox: [-25, -254, 1000, 880],
      ItalicAngle: 0,
      Ascent: 880,
      Descent: -120,
      CapHeight: 880,
      StemV: 93,
    }),
  });
  const font = context.obj({
    Type: 'Font',
    Subtype: 'Type0',
    BaseFont: 'STSong-Light',
    Encoding: 'UniGB-UCS2-H',
    DescendantFonts: [descendant],
  });
  page.node.setFontDictionary(PDFName.of('F1'), context.register(font));
  const code = (char: string) => (char.codePointAt(0) ?? 0).toString(16).padStart(4, '0');
  const shows = [...text]
    .map((char, i) => `1 0 0 1 ${CJK_LINE.x + i * CJK_LINE.advance} ${CJK_LINE.y} Tm <${code(char)}> Tj`)
    .join(' ');
  page.node.set(
    PDFName.of('Contents'),
    context.register(context.stream(`BT /F1 ${CJK_LINE.size} Tf ${shows} ET`)),
  );
  return Buffer.from(await doc.save());
};
