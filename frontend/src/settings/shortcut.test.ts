import { describe, expect, it } from 'vitest';
import { comboFromKey } from './shortcut';

const k = (key: string, code: string, mods: Partial<Record<'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey', boolean>> = {}) =>
  ({ key, code, ctrlKey: false, altKey: false, shiftKey: false, metaKey: false, ...mods });

describe('the shortcut field records what is pressed', () => {
  it('writes combinations the core parses', () => {
    expect(comboFromKey(k('y', 'KeyY', { ctrlKey: true, altKey: true }))).toBe('Ctrl+Alt+Y');
    expect(comboFromKey(k('Y', 'KeyY', { ctrlKey: true, shiftKey: true }))).toBe('Ctrl+Shift+Y');
    expect(comboFromKey(k('¥', 'KeyY', { altKey: true }))).toBe('Alt+Y'); // the layout's symbol does not matter
    expect(comboFromKey(k('F2', 'F2', { metaKey: true }))).toBe('Super+F2');
    expect(comboFromKey(k(' ', 'Space', { ctrlKey: true, metaKey: true }))).toBe('Ctrl+Super+Space');
    expect(comboFromKey(k('ArrowUp', 'ArrowUp', { altKey: true }))).toBe('Alt+Up');
    expect(comboFromKey(k('7', 'Digit7', { ctrlKey: true }))).toBe('Ctrl+7');
  });

  it('lets plain typing through', () => {
    expect(comboFromKey(k('y', 'KeyY'))).toBeNull();
    expect(comboFromKey(k('Y', 'KeyY', { shiftKey: true }))).toBeNull();
    expect(comboFromKey(k('Control', 'ControlLeft', { ctrlKey: true }))).toBeNull(); // a modifier alone
    expect(comboFromKey(k('Alt', 'AltLeft', { ctrlKey: true, altKey: true }))).toBeNull();
  });
});
