import { beforeEach, describe, expect, it } from 'vitest';
import { PlateCause } from './platecause';

describe('PlateCause', () => {
  beforeEach(() => {
    document.body.innerHTML = '';
  });

  it('shows the cause of a connection plate, with Open settings only when the fix is a setting', () => {
    let opened = 0;
    const c = new PlateCause(() => opened++);
    document.body.append(c.el);
    const button = c.el.querySelector<HTMLButtonElement>('.plate-cause-settings')!;
    expect(c.el.hidden).toBe(true);
    c.show({ type: 'plate', kind: 'connection', text: 'reconnecting in 3 s', action: 'reconnect',
      cause: "Can't reach 127.0.0.1:8646: connection refused — nothing is listening there. Is the server running?" });
    expect(c.el.hidden).toBe(false);
    expect(c.el.textContent).toContain("Can't reach 127.0.0.1:8646: connection refused");
    expect(button.hidden).toBe(true);
    c.show({ type: 'plate', kind: 'connection', text: 'reconnecting in 2 s', action: 'reconnect', settings: true,
      cause: 'This server does not speak the push protocol (HTTP 404 on upgrade) — is it an OpenAI-compatible server? Choose its API in Settings.' });
    expect(button.hidden).toBe(false);
    button.click();
    expect(opened).toBe(1);
    c.show({ type: 'plate', kind: 'thinking', text: 'thinking' });
    expect(c.el.hidden).toBe(true);
    c.show({ type: 'plate', kind: '', text: '' });
    expect(c.el.hidden).toBe(true);
  });

  it('keeps markup out: the cause goes in as text', () => {
    const c = new PlateCause(() => {});
    c.show({ type: 'plate', kind: 'connection', text: "can't connect", cause: '<b>x</b>' });
    expect(c.el.querySelector('b')).toBeNull();
    expect(c.el.textContent).toContain('<b>x</b>');
  });
});
