import { describe, expect, it } from 'vitest';
import { asset, button, el } from './dom';

describe('el', () => {
  it('builds an element with a class, attributes and text children, never parsing text as markup', () => {
    const e = el('p', { class: 'note', attrs: { role: 'status', 'data-x': 3, off: false, on: true } }, 'a <b>', el('span', 'k', 'z'));
    expect(e.outerHTML).toBe('<p class="note" role="status" data-x="3" on="">a &lt;b&gt;<span class="k">z</span></p>');
    expect(el('div', 'only').className).toBe('only');
    expect(el('div', { hidden: true }).hidden).toBe(true);
  });

  it('makes buttons of type button and parses constant assets', () => {
    const b = button('x', 'Go', { 'aria-label': 'Go now' }, true);
    expect(b.type).toBe('button');
    expect(b.hidden).toBe(true);
    expect(b.getAttribute('aria-label')).toBe('Go now');
    const f = asset('<svg viewBox="0 0 1 1"></svg>');
    expect(f.firstChild?.nodeName.toLowerCase()).toBe('svg');
  });
});
