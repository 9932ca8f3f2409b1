// What the hosted pages call a contract: the first line of its first page.
import { documentTitle, type TextRun } from '../../lambdas/core/rendered-contract';

const run = (text: string, x: number, y: number, height = 0.02): TextRun => ({
  text,
  x,
  y,
  width: 0.1,
  height,
});
const pages = (...runs: TextRun[][]) => ({ pages: runs.map((text) => ({ text })) }) as never;

test('the topmost line of page 1, its runs left to right, spaces tidied', () => {
  const contract = pages(
    [
      run('Vendor: M. Hayes', 0.1, 0.2),
      run('SALE  OF REAL ESTATE', 0.4, 0.101),
      run('CONTRACT OF', 0.1, 0.1),
    ],
    [run('Page two first', 0.1, 0.01)],
  );

  expect(documentTitle(contract)).toBe('CONTRACT OF SALE OF REAL ESTATE');
});

test('"Contract" for a first page without text (a scan), or no pages', () => {
  expect(documentTitle(pages([run('   ', 0.1, 0.1)], [run('Later text', 0.1, 0.1)]))).toBe('Contract');
  expect(documentTitle(pages())).toBe('Contract');
});

test('a long first line is cut at a word, with an ellipsis, to at most 121 characters', () => {
  const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ');

  const title = documentTitle(pages([run(words, 0.1, 0.1)]));

  expect(title.endsWith('…')).toBe(true);
  expect([...title].length).toBeLessThanOrEqual(121);
  expect(words.startsWith(title.slice(0, -1))).toBe(true);
  expect(title.slice(0, -1).endsWith(' ')).toBe(false);
});
