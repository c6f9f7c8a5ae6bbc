// The shortcut field records a key combination as it is pressed
// ("Ctrl+Alt+Y"), in the form the core parses (app/hotkey.Parse). Typing
// the text by hand works too: keys without Ctrl, Alt or Super are typed.

const NAMED: Record<string, string> = {
  ' ': 'Space', Enter: 'Enter', Tab: 'Tab', Escape: 'Escape', Insert: 'Insert', Delete: 'Delete',
  Home: 'Home', End: 'End', PageUp: 'PageUp', PageDown: 'PageDown',
  ArrowUp: 'Up', ArrowDown: 'Down', ArrowLeft: 'Left', ArrowRight: 'Right', Pause: 'Pause',
};

/** The key's name in a combination, or null for a key a shortcut cannot
 * use (a modifier alone, an accented letter…). Letters and digits come
 * from `code`, so Shift or a keyboard layout does not change them. */
export function keyName(e: Pick<KeyboardEvent, 'key' | 'code'>): string | null {
  const m = /^(?:Key([A-Z])|Digit([0-9]))$/.exec(e.code);
  if (m) return m[1] ?? m[2]!;
  if (/^F([1-9]|1[0-9]|2[0-4])$/.test(e.key)) return e.key;
  return NAMED[e.key] ?? null;
}

/** The combination a key press makes, or null when it is not one (no
 * Ctrl, Alt or Super, or no usable key): the field then types as usual. */
export function comboFromKey(e: Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey'>): string | null {
  if (!e.ctrlKey && !e.altKey && !e.metaKey) return null;
  const key = keyName(e);
  if (!key) return null;
  const mods = [e.ctrlKey && 'Ctrl', e.altKey && 'Alt', e.shiftKey && 'Shift', e.metaKey && 'Super'].filter(Boolean);
  return [...mods, key].join('+');
}
