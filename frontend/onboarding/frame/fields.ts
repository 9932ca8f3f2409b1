// frontend/onboarding/frame -> the form's fields: a label on every control, a hint where it helps, and a
// message saying what to fix. A field with a problem shows the message above its control, marks the
// control `aria-invalid` and adds the message to its `aria-describedby`, so a screen reader reads it
// with the field. Groups (radios, a date) are fieldsets named by their legend.
import { h, hidden, idOf } from './dom';

export interface FieldView {
  path: string;
  root: HTMLElement;
  /** The id a link to this field points at (its first control). */
  anchor: string;
  /** The control to put the focus on when this field has a problem. */
  focusTarget(): HTMLElement;
  setError(message: string | null): void;
}

/** The hint and message elements of a field, and the `aria-describedby` they make. */
const describe = (id: string, hint: string | undefined) => {
  const hintElement = hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null;
  const errorElement = h('p', { class: 'message', id: `${id}-error`, hidden: true });
  const describedBy = (withError: boolean) =>
    [hintElement && `${id}-hint`, withError && `${id}-error`].filter(Boolean).join(' ');
  const show = (message: string | null) => {
    errorElement.replaceChildren(...(message ? [hidden('Error: '), message] : []));
    errorElement.hidden = message === null;
  };
  return { hintElement, errorElement, describedBy, show };
};

const describeControls = (controls: HTMLElement[], describedBy: string, invalid: boolean) => {
  for (const control of controls) {
    if (describedBy) control.setAttribute('aria-describedby', describedBy);
    else control.removeAttribute('aria-describedby');
    if (invalid) control.setAttribute('aria-invalid', 'true');
    else control.removeAttribute('aria-invalid');
  }
};

export interface TextOptions {
  path: string;
  label: string;
  value: string;
  onInput(value: string): void;
  hint?: string;
  type?: 'text' | 'email' | 'tel';
  autocomplete?: string;
  inputmode?: 'text' | 'email' | 'tel' | 'numeric';
  /** How wide the box is drawn: the width of what it holds. */
  width?: 'short' | 'medium' | 'long';
  optional?: boolean;
  spellcheck?: boolean;
  maxlength?: number;
}

export const textField = (o: TextOptions): FieldView => {
  const id = idOf(o.path);
  const d = describe(id, o.hint);
  const input = h('input', {
    class: `input input-${o.width ?? 'long'}`,
    id,
    name: o.path,
    type: o.type ?? 'text',
    autocomplete: o.autocomplete ?? 'off',
    inputmode: o.inputmode,
    spellcheck: o.spellcheck === false ? 'false' : undefined,
    autocapitalize: o.type === 'email' ? 'none' : undefined,
    maxlength: String(o.maxlength ?? 200),
    'aria-describedby': d.describedBy(false) || undefined,
  });
  input.value = o.value;
  input.addEventListener('input', () => o.onInput(input.value));
  const label = h('label', { class: 'label', for: id }, o.label, o.optional ? ' (optional)' : '');
  const root = h('div', { class: 'field' }, label, d.hintElement, d.errorElement, input);
  return {
    path: o.path,
    root,
    anchor: id,
    focusTarget: () => input,
    setError: (message) => {
      d.show(message);
      root.classList.toggle('field-error', message !== null);
      describeControls([input], d.describedBy(message !== null), message !== null);
    },
  };
};

export interface SelectOptions {
  path: string;
  label: string;
  value: string;
  options: Array<{ value: string; label: string }>;
  onChange(value: string): void;
  hint?: string;
}

export const selectField = (o: SelectOptions): FieldView => {
  const id = idOf(o.path);
  const d = describe(id, o.hint);
  const select = h(
    'select',
    { class: 'input input-medium', id, name: o.path, 'aria-describedby': d.describedBy(false) || undefined },
    h('option', { value: '' }, 'Choose…'),
    ...o.options.map((option) => h('option', { value: option.value }, option.label)),
  );
  select.value = o.options.some((option) => option.value === o.value) ? o.value : '';
  select.addEventListener('change', () => o.onChange(select.value));
  const root = h('div', { class: 'field' }, h('label', { class: 'label', for: id }, o.label), d.hintElement);
  root.append(d.errorElement, select);
  return {
    path: o.path,
    root,
    anchor: id,
    focusTarget: () => select,
    setError: (message) => {
      d.show(message);
      root.classList.toggle('field-error', message !== null);
      describeControls([select], d.describedBy(message !== null), message !== null);
    },
  };
};

export interface RadioOptions<T extends string> {
  path: string;
  legend: string;
  value: T | '';
  options: Array<{ value: T; label: string; hint?: string }>;
  onChange(value: T): void;
  hint?: string;
  /** Options side by side (short labels such as Yes and No). */
  inline?: boolean;
  /** The legend as the step's question: larger, when it is the step's only question. */
  large?: boolean;
}

export const radioField = <T extends string>(o: RadioOptions<T>): FieldView => {
  const id = idOf(o.path);
  const d = describe(id, o.hint);
  const radios = o.options.map((option, i) => {
    const radioId = i === 0 ? id : `${id}-${option.value}`;
    const radio = h('input', {
      class: 'choice-input',
      type: 'radio',
      id: radioId,
      name: o.path,
      value: option.value,
    });
    radio.checked = option.value === o.value;
    radio.addEventListener('change', () => {
      if (radio.checked) o.onChange(option.value);
    });
    const hintId = option.hint ? `${radioId}-hint` : undefined;
    if (hintId) radio.setAttribute('aria-describedby', hintId);
    return {
      radio,
      element: h(
        'div',
        { class: 'choice' },
        radio,
        h('label', { class: 'choice-label', for: radioId }, option.label),
        option.hint ? h('p', { class: 'choice-hint hint', id: hintId }, option.hint) : null,
      ),
    };
  });
  const root = h(
    'fieldset',
    { class: 'field', role: 'radiogroup', 'aria-describedby': d.describedBy(false) || undefined },
    h('legend', { class: o.large ? 'legend legend-large' : 'legend' }, o.legend),
    d.hintElement,
    d.errorElement,
    h('div', { class: o.inline ? 'choices choices-inline' : 'choices' }, ...radios.map((r) => r.element)),
  );
  return {
    path: o.path,
    root,
    anchor: id,
    focusTarget: () => (radios.find((r) => r.radio.checked) ?? radios[0])?.radio ?? root,
    setError: (message) => {
      d.show(message);
      root.classList.toggle('field-error', message !== null);
      describeControls([root], d.describedBy(message !== null), message !== null);
    },
  };
};

export interface CheckboxOptions {
  path: string;
  label: string;
  checked: boolean;
  onChange(checked: boolean): void;
}

export const checkboxField = (o: CheckboxOptions): FieldView => {
  const id = idOf(o.path);
  const d = describe(id, undefined);
  const box = h('input', { class: 'choice-input', type: 'checkbox', id, name: o.path });
  box.checked = o.checked;
  box.addEventListener('change', () => o.onChange(box.checked));
  const root = h(
    'div',
    { class: 'field' },
    d.errorElement,
    h('div', { class: 'choice' }, box, h('label', { class: 'choice-label', for: id }, o.label)),
  );
  return {
    path: o.path,
    root,
    anchor: id,
    focusTarget: () => box,
    setError: (message) => {
      d.show(message);
      root.classList.toggle('field-error', message !== null);
      describeControls([box], d.describedBy(message !== null), message !== null);
    },
  };
};

export interface DateOptions {
  path: string;
  legend: string;
  hint: string;
  value: { day: string; month: string; year: string };
  onInput(value: { day: string; month: string; year: string }): void;
  autocomplete: boolean;
}

/** A date as three boxes (day, month, year): easier to type and to read back than a date picker. */
export const dateField = (o: DateOptions): FieldView => {
  const id = idOf(o.path);
  const d = describe(id, o.hint);
  const parts = (['day', 'month', 'year'] as const).map((part) => {
    const partId = part === 'day' ? id : `${id}-${part}`;
    const input = h('input', {
      class: part === 'year' ? 'input input-year' : 'input input-day',
      id: partId,
      name: `${o.path}.${part}`,
      type: 'text',
      inputmode: 'numeric',
      maxlength: part === 'year' ? '4' : '2',
      autocomplete: o.autocomplete ? `bday-${part}` : 'off',
      'aria-describedby': d.describedBy(false) || undefined,
    });
    input.value = o.value[part];
    const label = part === 'day' ? 'Day' : part === 'month' ? 'Month' : 'Year';
    return {
      part,
      input,
      element: h('div', { class: 'date-part' }, h('label', { class: 'label', for: partId }, label), input),
    };
  });
  const read = () => {
    const value = { day: '', month: '', year: '' };
    for (const p of parts) value[p.part] = p.input.value;
    return value;
  };
  for (const p of parts) p.input.addEventListener('input', () => o.onInput(read()));
  const root = h(
    'fieldset',
    { class: 'field' },
    h('legend', { class: 'legend' }, o.legend),
    d.hintElement,
    d.errorElement,
    h('div', { class: 'date' }, ...parts.map((p) => p.element)),
  );
  let invalid: HTMLInputElement[] = [];
  return {
    path: o.path,
    root,
    anchor: id,
    focusTarget: () => invalid[0] ?? parts[0]!.input,
    setError: (message) => {
      d.show(message);
      root.classList.toggle('field-error', message !== null);
      // The parts the message is about: the missing ones when some are, else all three.
      const empty = parts.filter((p) => p.input.value.trim() === '').map((p) => p.input);
      invalid =
        message === null ? [] : empty.length > 0 && empty.length < 3 ? empty : parts.map((p) => p.input);
      for (const p of parts) {
        describeControls([p.input], d.describedBy(message !== null), invalid.includes(p.input));
      }
    },
  };
};
