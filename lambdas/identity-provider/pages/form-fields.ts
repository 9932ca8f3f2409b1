// identity provider pages -> a labelled input with its hint and error tied to it (`aria-describedby`), marked
// invalid when it has an error, and focused first when it is the field to correct.
import { escapeHtml } from '../../pages/html';

export interface FieldOptions {
  name: 'email' | 'password';
  label: string;
  type: 'email' | 'password';
  autocomplete: 'username' | 'current-password' | 'new-password';
  value?: string;
  hint?: string;
  /** The message of what is wrong with this field. */
  error?: string;
  /** Ids of other elements that describe it (a form-wide error). */
  describedBy?: string[];
  autofocus?: boolean;
}

export const field = (options: FieldOptions): string => {
  const hintId = `${options.name}-hint`;
  const errorId = `${options.name}-error`;
  const describedBy = [
    ...(options.describedBy ?? []),
    ...(options.hint ? [hintId] : []),
    ...(options.error ? [errorId] : []),
  ];
  const attributes = [
    `id="${options.name}"`,
    `name="${options.name}"`,
    `type="${options.type}"`,
    `autocomplete="${options.autocomplete}"`,
    'required',
    ...(options.type === 'email' ? ['spellcheck="false"', 'autocapitalize="none"'] : []),
    ...(options.value ? [`value="${escapeHtml(options.value)}"`] : []),
    ...(describedBy.length ? [`aria-describedby="${describedBy.join(' ')}"`] : []),
    ...(options.error || options.describedBy?.length ? ['aria-invalid="true"'] : []),
    ...(options.autofocus ? ['autofocus'] : []),
  ];
  return [
    '<div class="field">',
    `<label for="${options.name}">${escapeHtml(options.label)}</label>`,
    `<input ${attributes.join(' ')}>`,
    ...(options.hint ? [`<p class="hint" id="${hintId}">${escapeHtml(options.hint)}</p>`] : []),
    ...(options.error ? [`<p class="error" id="${errorId}">${escapeHtml(options.error)}</p>`] : []),
    '</div>',
  ].join('\n');
};
