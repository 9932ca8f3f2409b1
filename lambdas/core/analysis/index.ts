// core -> the contract analysis's public surface.
export { analyseContract, pagesOf } from './analyse-contract';
export { ANALYSIS_TIME_LIMIT_MS, AnalysisTimedOut, deadlineBudget } from './deadline';
export { analysisToMarkdown, escapeMarkdown, formatMoney } from './markdown';
export type { AnalysisBudget } from './search';
export type * from './types';
