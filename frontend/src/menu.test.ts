import { beforeEach, describe, expect, it } from 'vitest';
import { PetMenu, type MenuActions } from './menu';
import type { DesktopActionKind } from './protocol';

function setup() {
  const calls: string[] = [];
  const actions: MenuActions = {
    settings: () => calls.push('settings'),
    messages: () => calls.push('messages'),
    reset: () => calls.push('reset'),
    muteCharacter: (m) => calls.push(`mute ${m}`),
    listenTarget: () => calls.push('listen-target'),
    quiet: (scope, q) => calls.push(`quiet ${scope} ${q}`),
    desktop: (a: DesktopActionKind) => calls.push(`desktop ${a}`),
    changed: () => calls.push('changed'),
    room: () => ({ width: 0, height: 0 }),
  };
  const menu = new PetMenu(actions);
  document.body.append(menu.el);
  const item = (a: string) => menu.el.querySelector<HTMLButtonElement>(`[data-action="${a}"]`)!;
  const acts = () => calls.filter((c) => c !== 'changed');
  return { menu, item, acts };
}

describe('PetMenu', () => {
  beforeEach(() => {
    document.body.innerHTML = '';
  });

  it('opens at a point with the first item focused and closes giving the focus back', () => {
    const { menu, item } = setup();
    const before = document.body.appendChild(document.createElement('button'));
    before.focus();
    menu.openAt(30, 40);
    expect(menu.open).toBe(true);
    expect(menu.el.style.left).toBe('30px');
    expect(document.activeElement).toBe(item('settings'));
    menu.close();
    expect(menu.open).toBe(false);
    expect(document.activeElement).toBe(before);
  });

  it('asks "Start over?" before a reset, and Cancel asks nothing', () => {
    const { menu, item, acts } = setup();
    menu.openAt(0, 0);
    item('reset').click();
    expect(menu.confirming).toBe(true);
    expect(document.activeElement).toBe(item('reset-cancel'));
    item('reset-cancel').click();
    expect(acts()).toEqual([]);
    menu.openAt(0, 0);
    expect(menu.confirming).toBe(false);
    item('reset').click();
    item('reset-yes').click();
    expect(acts()).toEqual(['reset']);
    expect(menu.open).toBe(false);
  });

  it('shows the core\'s voice and desktop state and asks for the other state', () => {
    const { menu, item, acts } = setup();
    expect(item('mute-character').hidden).toBe(true);
    menu.applyVoice({ type: 'voice', muted: true, global_muted: false, engine: 'system' });
    expect(item('mute-character').textContent).toBe('Unmute voice');
    expect(item('mute').textContent).toBe('Mute all voices');
    item('mute-character').click();
    menu.applyDesktop({ type: 'desktop', voices_muted: true, start_at_login: false, start_at_login_available: false });
    expect(item('start-at-login').hidden).toBe(true);
    item('mute').click();
    expect(item('messages').hidden).toBe(true);
    menu.applyPreset({ type: 'preset', id: 'p', name: 'Mika', look: 'yui' });
    expect(item('hide').textContent).toBe('Hide Mika');
    // This character's mute is named after her; the other one says "all".
    expect(item('mute-character').textContent).toBe('Unmute Mika');
    menu.applyVoice({ type: 'voice', muted: false, global_muted: false, engine: 'system' });
    expect(item('mute-character').textContent).toBe('Mute Mika');
    expect(item('messages').hidden).toBe(false);
    item('hide').click();
    item('settings').click();
    item('messages').click();
    expect(acts()).toEqual(['mute false', 'desktop unmute', 'desktop hide', 'settings', 'messages']);
  });

  it('offers "Send my voice here" only while spoken turns go to another character', () => {
    const { menu, item, acts } = setup();
    expect(item('listen-target').hidden).toBe(true);
    menu.offerListenTarget(true);
    expect(item('listen-target').hidden).toBe(false);
    item('listen-target').click();
    expect(menu.open).toBe(false);
    menu.offerListenTarget(false);
    expect(item('listen-target').hidden).toBe(true);
    expect(acts()).toEqual(['listen-target']);
  });

  it('switches the quiet companion, hers and everyone\'s, from the core\'s state', () => {
    const { menu, item, acts } = setup();
    menu.applyPreset({ type: 'preset', id: 'p-1', name: 'Yui', look: 'yui' });
    expect(item('quiet-character').hidden).toBe(true);
    menu.applyCompanion({ type: 'companion', quiet: false, global_quiet: true });
    expect(item('quiet-character').hidden).toBe(false);
    expect(item('quiet-character').textContent).toBe('Quiet Yui');
    expect(item('quiet-all').getAttribute('aria-checked')).toBe('true');
    menu.openAt(0, 0);
    item('quiet-character').click();
    menu.openAt(0, 0);
    item('quiet-all').click();
    expect(acts()).toEqual(['quiet character true', 'quiet all false']);
  });
});
