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

  it('grows with its lines up to maxLines, then scrolls (a second line no longer hides the first)', () => {
    let changes = 0;
    const c = new ComposerView({ send: () => true, now: () => 0, changed: () => changes++, rows: 1, maxLines: 4 });
    document.body.append(c.el);
    c.input.style.lineHeight = '18px';
    c.input.style.padding = '4px 8px';
    c.input.style.border = '1px solid';
    let lines = 1;
    Object.defineProperty(c.input, 'scrollHeight', { get: () => lines * 18 + 8 });
    c.open();
    expect(c.input.style.height).toBe('28px');
    const type = (n: number) => {
      lines = n;
      c.input.dispatchEvent(new Event('input'));
    };
    const before = changes;
    type(2);
    expect(c.input.style.height).toBe('46px');
    expect(changes).toBe(before + 1); // the click region follows
    type(2);
    expect(changes).toBe(before + 1); // the same height is no change
    type(7);
    expect(c.input.style.height).toBe('82px');
    expect(c.input.style.overflowY).toBe('auto');
    // Sent and accepted: back to one line.
    c.input.value = 'hello';
    c.submit();
    lines = 1;
    c.apply({ type: 'composer', locked: true });
    expect(c.input.value).toBe('');
    expect(c.input.style.height).toBe('28px');
    expect(c.input.style.overflowY).toBe('hidden');
  });
});
