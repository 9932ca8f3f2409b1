// local -> how an analysis thread starts from the sources (under tsx, or jest, which does not load
// modules through tsx): tsx's loader registered in the thread itself, then the thread's module.
import { register } from 'tsx/esm/api';

register();
await import('./analysis-thread-main.ts');
