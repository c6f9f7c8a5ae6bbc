import { describe, expect, it } from 'vitest';
import type { PageMessage, VRMLookChoice } from '../protocol';
import { LookOptionsSection } from './lookoptions';

describe("a character's VRM look options", () => {
  const vrm: VRMLookChoice = { id: 'mine', thumb: '', version: '1.0', breathing: 'off', touch_turns: true };

  it("shows hers or the look's own, and sends a change for her at once", () => {
    const sent: PageMessage[] = [];
    const s = new LookOptionsSection({ send: (m) => { sent.push(m); return true; } });
    s.show(undefined, 'p-00000001', undefined);
    expect(s.el.hidden).toBe(true);
    s.show(vrm, 'p-00000001', { breathing: '', touch_turns: 'off' });
    expect(s.el.hidden).toBe(false);
    const [breathing, touch] = [...s.el.querySelectorAll('select')];
    expect(breathing!.value).toBe('');
    expect(breathing!.selectedOptions[0]!.textContent).toBe("The look's own (keeps still)");
    expect(touch!.value).toBe('off');
    expect([...touch!.options].map((o) => o.textContent)[0]).toBe("The look's own (starts a conversation)");
    breathing!.value = 'low';
    breathing!.dispatchEvent(new Event('change'));
    expect(sent.at(-1)).toEqual({ type: 'look_options', preset: 'p-00000001', breathing: 'low', touch_turns: 'off' });
    touch!.value = '';
    touch!.dispatchEvent(new Event('change'));
    expect(sent.at(-1)).toEqual({ type: 'look_options', preset: 'p-00000001', breathing: 'low', touch_turns: '' });
  });

  it('is hidden for a character not saved yet, and sends nothing for a built-in look', () => {
    const sent: PageMessage[] = [];
    const s = new LookOptionsSection({ send: (m) => { sent.push(m); return true; } });
    s.show(vrm, '', undefined);
    expect(s.el.hidden).toBe(true);
    s.show(undefined, 'p-00000001', undefined);
    s.el.querySelector('select')!.dispatchEvent(new Event('change'));
    expect(sent).toEqual([]);
  });
});
