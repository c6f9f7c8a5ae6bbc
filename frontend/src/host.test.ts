import { describe, expect, it } from 'vitest';
import { closeKeys, inlineConfig, pageConfig } from './host';

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

describe('inlineConfig and pageConfig', () => {
  function docWith(content: string | null): Document {
    const doc = document.implementation.createHTMLDocument('t');
    if (content !== null) {
      const m = doc.createElement('meta');
      m.setAttribute('name', 'yui-page');
      m.setAttribute('content', content);
      doc.head.appendChild(m);
    }
    return doc;
  }

  it('reads the config the shell wrote into the head, with no round trip', async () => {
    const cfg = { view_url: 'ws://127.0.0.1:5/view?token=t&role=pet&preset=p', role: 'pet', preset: 'p', lang: 'ja' };
    const doc = docWith(JSON.stringify(cfg));
    expect(inlineConfig(doc)).toEqual(cfg);
    expect(await pageConfig(window.location, doc)).toEqual(cfg);
  });

  it('ignores a missing, broken or incomplete tag', () => {
    expect(inlineConfig(docWith(null))).toBeNull();
    expect(inlineConfig(docWith('{not json'))).toBeNull();
    expect(inlineConfig(docWith('{"role":"pet"}'))).toBeNull();
  });
});
