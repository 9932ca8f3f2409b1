// core -> the contract analysis's public surface.
export { analyseContract, pagesOf } from './analyse-contract';
export { analysisToMarkdown, escapeMarkdown, formatMoney } from './markdown';
export type { AnalysisBudget } from './search';
export type * from './types';
