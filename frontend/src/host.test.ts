import { describe, expect, it } from 'vitest';
import { closeKeys } from './host';

describe('closeKeys', () => {
  const press = (init: KeyboardEventInit, prevent = false) => {
    const e = new KeyboardEvent('keydown', { bubbles: true, cancelable: true, ...init });
    if (prevent) e.preventDefault();
    document.body.dispatchEvent(e);
  };

  it('closes on Ctrl+W and on Escape nothing in the page used', () => {
    let closed = 0;
    let busy = false;
    closeKeys(document, () => closed++, () => busy);
    press({ key: 'w', ctrlKey: true });
    expect(closed).toBe(1);
    press({ key: 'Escape' });
    expect(closed).toBe(2);
    press({ key: 'Escape' }, true); // the page used it (a question cancelled)
    busy = true;
    press({ key: 'Escape' });
    press({ key: 'w' });
    press({ key: 'w', ctrlKey: true, shiftKey: true });
    expect(closed).toBe(2);
  });
});
