import { describe, expect, it } from 'vitest';
import { keepAboveWhileFocused } from './host';

describe('the settings window above the pets while focused', () => {
  it('asks the Wails runtime for always-on-top on focus and lets go on blur', () => {
    const calls: boolean[] = [];
    (window as unknown as { runtime: unknown }).runtime = { WindowSetAlwaysOnTop: (on: boolean) => calls.push(on) };
    try {
      keepAboveWhileFocused(window);
      const before = calls.length; // set(true) at once if the document has the focus
      window.dispatchEvent(new Event('focus'));
      window.dispatchEvent(new Event('blur'));
      expect(calls.slice(before)).toEqual([true, false]);
    } finally {
      delete (window as unknown as { runtime?: unknown }).runtime;
    }
  });
});
