// core -> which characters are Chinese, Japanese or Korean full-width ones: drawn one em wide in every CJK
// face, and drawn only by such a face (the renderer's fallback for fonts a PDF does not embed, and the
// width of a page's text layer).

/** Han (with extension A and compatibility ideographs), kana, CJK punctuation, Hangul, full-width forms. */
const CJK =
  /[\u2e80-\u2fdf\u3000-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;

/** Whether `text` has a CJK full-width character. */
export const hasCjk = (text: string): boolean => CJK.test(text);
