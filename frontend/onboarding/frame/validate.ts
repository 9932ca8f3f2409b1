// frontend/onboarding/frame -> what to fix, field by field, before a step goes on. The service's own
// schema judges the answers (lambdas/core/onboarding-answers.ts, bundled into the form), so the form
// refuses exactly what the frame API would, with the same messages and the same paths (`buyers.1.email`).
// Only a few messages are the form's own, where it asks differently from the answers' shape: how many
// buyers (nothing chosen yet), the property's state (a list), and a date of birth typed in three boxes,
// whose missing or non-numeric parts are named in the boxes' terms.
import { checkAnswers, type FieldProblem } from '../../../lambdas/core/onboarding-answers';
import { type Draft, dateParts, submittedAnswers } from './answers';

export type Problem = FieldProblem;

/** What is wrong with the parts of a date of birth as typed, before it can be read as a date. */
export const datePartsProblem = (value: string): string | null => {
  const { year, month, day } = dateParts(value);
  const missing = [!day.trim() && 'day', !month.trim() && 'month', !year.trim() && 'year'].filter(Boolean);
  if (missing.length === 3) return 'Enter the date of birth.';
  if (missing.length > 0) return `The date of birth needs a ${missing.join(' and a ')}.`;
  if (!/^\d{1,2}$/.test(day.trim()) || !/^\d{1,2}$/.test(month.trim()))
    return 'Write the day and the month as numbers, like 27 and 3.';
  if (!/^\d{4}$/.test(year.trim())) return 'Write the year with four digits, like 1985.';
  return null;
};

/** Every problem of `draft` at `now`, in the order the form asks its questions. */
export const checkDraft = (draft: Draft, now: Date): Problem[] => {
  const checked = checkAnswers(submittedAnswers(draft), now);
  if (checked.ok) return [];
  return checked.fields.map((problem) => {
    if (problem.path === 'buyers' && draft.buyers.length === 0)
      return { path: 'buyers', message: 'Choose how many people are buying the property.' };
    // The property's state is a list to choose from, not a box to fill in.
    if (problem.path === 'property.address.state' && draft.property.address.state.trim() === '')
      return { path: problem.path, message: 'Choose the state or territory of the property.' };
    const dob = /^buyers\.(\d+)\.date_of_birth$/.exec(problem.path);
    const typed = dob ? draft.buyers[Number(dob[1])]?.date_of_birth : undefined;
    const parts = typed === undefined ? null : datePartsProblem(typed);
    return parts ? { path: problem.path, message: parts } : problem;
  });
};

/** Whether `path` is `prefix` or lies under it (`buyers.0.address.line1` under `buyers.0.address`). */
export const under = (path: string, prefix: string): boolean =>
  path === prefix || (prefix !== '' && path.startsWith(`${prefix}.`));
