// The one way the pages build DOM (docs/decisions.md, "Frontend: one way to
// build DOM"). Every element is made by el(); text goes in as text nodes
// (never markup), and the only markup ever parsed is a constant asset of
// the app itself (an SVG drawing or icon) through asset().

/** What el() sets besides the tag: the class, attributes (a `false` or
 * `undefined` value leaves the attribute out, `true` sets it empty), and
 * whether the element starts hidden. */
export interface ElOptions {
  class?: string;
  attrs?: Record<string, string | number | boolean | undefined>;
  hidden?: boolean;
}

/** A child of el(): an element, or a string that becomes a text node ('' adds nothing). */
export type Child = Node | string | null | undefined | false;

/**
 * Makes an element. `opts` is the class name, or an ElOptions; the
 * children follow, strings as text nodes. `el('p', 'note', 'Hello')` is a
 * `<p class="note">Hello</p>`.
 */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, opts: string | ElOptions = '', ...children: Child[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  const o: ElOptions = typeof opts === 'string' ? { class: opts } : opts;
  if (o.class) e.className = o.class;
  for (const [k, v] of Object.entries(o.attrs ?? {})) {
    if (v === false || v === undefined) continue;
    e.setAttribute(k, v === true ? '' : String(v));
  }
  if (o.hidden) e.hidden = true;
  for (const c of children) {
    if (c === null || c === undefined || c === false || c === '') continue;
    e.append(c);
  }
  return e;
}

/** A shorthand for a `<button type="button">`. */
export function button(cls: string, label: Child, attrs: ElOptions['attrs'] = {}, hidden = false): HTMLButtonElement {
  return el('button', { class: cls, attrs: { type: 'button', ...attrs }, hidden }, label);
}

/**
 * Parses a constant drawing of the app (an SVG asset) into nodes. Only
 * for markup written in this repository: never pass it text from the core,
 * a backend or the user.
 */
export function asset(markup: string): DocumentFragment {
  const t = document.createElement('template');
  t.innerHTML = markup;
  return t.content;
}
