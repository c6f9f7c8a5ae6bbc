// The plain rows of the settings sections outside a character's form (the
// Listening and Speaking first sections): a labelled field and a checkbox
// line, each with its hint. The character form (form.ts) has rows of its
// own that also carry a field's error line.

import { el } from '../dom';

/** A labelled row for control: the label names the control's first input,
 * select or text area (the control itself when it is none), which gets the
 * id `${anchor}-control` when it has none; hint ('' for none) goes under
 * it. data-anchor is anchor. */
export function fieldRow(label: string, control: HTMLElement, anchor: string, hint: string): HTMLElement {
  const f = el('div', 'field');
  f.dataset.anchor = anchor;
  const l = el('label', 'field-label', label);
  const c = control.querySelector('input,select,textarea') ?? control;
  if (!c.id) c.id = `${anchor}-control`;
  l.htmlFor = c.id;
  const body = el('div', 'field-body');
  body.append(control);
  if (hint) body.append(el('div', 'hint', hint));
  f.append(l, body);
  return f;
}

/** A checkbox (input, with its id set) with its label beside it and hint
 * under it. */
export function checkRow(input: HTMLInputElement, label: string, hint: string): HTMLElement {
  const f = el('div', 'field field-check');
  const body = el('div', 'field-body');
  const line = el('div', 'check-line');
  const l = el('label', '', label);
  l.htmlFor = input.id;
  line.append(input, l);
  body.append(line, el('div', 'hint', hint));
  f.append(el('span', 'field-label'), body);
  return f;
}
