// frontend/onboarding/frame -> the one DOM helper the form's modules share. Text always goes in as text
// nodes (never markup), and no element gets a style attribute: the frame's CSP allows neither.

type Attributes = Record<string, string | boolean | undefined>;
type Child = Node | string | null | undefined | false;

/** An element with `attributes` (true: present, false or undefined: left out) and `children`. */
export const h = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] => {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children)
    if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
};

/** Text only a screen reader reads. */
export const hidden = (text: string): HTMLSpanElement => h('span', { class: 'visually-hidden' }, text);

/** An element id made from an answer's path (`buyers.0.email` becomes `f-buyers-0-email`). */
export const idOf = (path: string): string => `f-${path.replace(/[^A-Za-z0-9_]+/g, '-')}`;
