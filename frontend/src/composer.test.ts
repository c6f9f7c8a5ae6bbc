import { beforeEach, describe, expect, it } from 'vitest';
import { ComposerView } from './composer';
import type { PageMessage } from './protocol';

function setup(fixed = false) {
  const sent: PageMessage[] = [];
  const toggles: boolean[] = [];
  let now = 1000;
  const c = new ComposerView({
    send: (m) => (sent.push(m), true),
    now: () => now,
    changed: () => {},
    toggled: (o) => toggles.push(o),
    fixed,
  });
  document.body.append(c.el);
  const enter = () => c.input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
  return { c, sent, toggles, enter, tick: (ms: number) => { now += ms; } };
}

describe('ComposerView', () => {
  beforeEach(() => {
    document.body.innerHTML = '';
  });

  it('sends the trimmed line once and clears it only when the core accepts', () => {
    const { c, sent, enter } = setup();
    c.open();
    c.input.value = '  hi  ';
    enter();
    enter(); // no second send while the first is unanswered
    expect(sent).toEqual([{ type: 'send_text', text: 'hi' }]);
    expect(c.input.value).toBe('  hi  ');
    c.apply({ type: 'composer', locked: true });
    expect(c.input.value).toBe('');
    expect(c.locked).toBe(true);
    expect(c.el.querySelector('.composer-send')!.textContent).toBe('Stop');
    enter();
    expect(sent.at(-1)).toEqual({ type: 'stop' });
  });

  it('keeps the line on a refusal and shows the error line', () => {
    const { c, sent, enter } = setup();
    c.open();
    c.input.value = 'hello';
    enter();
    expect(c.apply({ type: 'error_line', text: 'Not connected', where: 'composer' })).toBe(true);
    expect(c.input.value).toBe('hello');
    const err = c.el.querySelector<HTMLElement>('.composer-error')!;
    expect(err.hidden).toBe(false);
    expect(err.textContent).toBe('Not connected');
    expect(c.apply({ type: 'error_line', text: 'x', where: 'pill' })).toBe(false);
    expect(sent).toHaveLength(1);
  });

  it('reports opening and closing once each; Escape closes unless fixed', () => {
    const { c, toggles } = setup();
    c.open();
    c.open();
    c.input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
    expect(c.isOpen).toBe(false);
    expect(toggles).toEqual([true, false]);
    document.body.innerHTML = '';
    const f = setup(true);
    expect(f.c.isOpen).toBe(true);
    f.c.input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
    f.c.close();
    expect(f.c.isOpen).toBe(true);
  });

  it('takes no keys while closed: the focus leaves the input and the form is inert', () => {
    const { c } = setup();
    expect(c.el.hasAttribute('inert')).toBe(true);
    c.open();
    expect(c.el.hasAttribute('inert')).toBe(false);
    expect(document.activeElement).toBe(c.input);
    c.input.value = 'help';
    c.input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
    expect(c.isOpen).toBe(false);
    expect(document.activeElement).not.toBe(c.input);
    expect(c.el.contains(document.activeElement)).toBe(false);
    expect(c.el.hasAttribute('inert')).toBe(true);
    // The draft stays for the next open.
    c.open();
    expect(c.input.value).toBe('help');
    expect(document.activeElement).toBe(c.input);
    // The message window's composer is always open and never inert.
    document.body.innerHTML = '';
    expect(setup(true).c.el.hasAttribute('inert')).toBe(false);
  });
});
