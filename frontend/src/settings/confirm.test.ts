import { beforeEach, describe, expect, it } from 'vitest';
import { ConfirmDialog } from './confirm';
import { SettingsView } from './view';
import { FakeScheduler } from '../test-helpers';
import type { PageMessage, SaveSettings } from '../protocol';
import { byLabel, saveButton, sidebarItem, state } from './test-fixtures';

const key = (el: Element, k: string) => el.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true, cancelable: true }));

describe('ConfirmDialog', () => {
  beforeEach(() => {
    document.body.innerHTML = '';
  });

  it('asks in the page, focuses Cancel, answers the buttons and Esc, and gives the focus back', async () => {
    const d = new ConfirmDialog();
    const opener = document.createElement('button');
    document.body.append(opener, d.el);
    opener.focus();
    expect(d.el.hidden).toBe(true);
    let p = d.ask({ message: 'Remove “Mika”?', confirm: 'Remove', danger: true });
    expect(d.el.hidden).toBe(false);
    expect(d.el.querySelector('[role="alertdialog"]')!.getAttribute('aria-modal')).toBe('true');
    expect(d.el.textContent).toContain('Remove “Mika”?');
    const ok = d.el.querySelector<HTMLButtonElement>('.confirm-ok')!;
    expect(ok.textContent).toBe('Remove');
    expect(ok.classList.contains('btn-danger')).toBe(true);
    expect(document.activeElement!.textContent).toBe('Cancel');
    key(document.activeElement!, 'Tab');
    expect(document.activeElement).toBe(ok);
    ok.click();
    expect(await p).toBe(true);
    expect(d.el.hidden).toBe(true);
    expect(document.activeElement).toBe(opener);
    p = d.ask({ message: 'Start over?', confirm: 'Start over' });
    key(document.activeElement!, 'Escape');
    expect(await p).toBe(false);
    p = d.ask({ message: 'Start over?', confirm: 'Start over' });
    d.el.querySelector<HTMLButtonElement>('.confirm-cancel')!.click();
    expect(await p).toBe(false);
  });
});

describe('SettingsView without a host confirm', () => {
  it('asks Remove character in its own dialog, not window.confirm', async () => {
    document.body.innerHTML = '';
    const sent: PageMessage[] = [];
    const called: string[] = [];
    window.confirm = (m?: string) => {
      called.push(String(m));
      return true;
    };
    const view = new SettingsView({ send: (m) => (sent.push(JSON.parse(JSON.stringify(m))), true) },
      { sched: new FakeScheduler(), requestIds: { next: () => 'r1' } });
    view.mount(document.body);
    view.apply(state());
    sidebarItem('p-0000000b').click();
    [...document.querySelectorAll('button')].find((b) => b.textContent === 'Remove character…')!.click();
    const dialog = document.querySelector<HTMLElement>('.confirm-backdrop')!;
    expect(dialog.hidden).toBe(false);
    expect(dialog.textContent).toContain('Remove “Mika”?');
    expect(called).toEqual([]);
    // Cancel keeps her.
    dialog.querySelector<HTMLButtonElement>('.confirm-cancel')!.click();
    await Promise.resolve();
    expect(document.querySelector('[data-id="p-0000000b"]')).not.toBeNull();
    [...document.querySelectorAll('button')].find((b) => b.textContent === 'Remove character…')!.click();
    dialog.querySelector<HTMLButtonElement>('.confirm-ok')!.click();
    await Promise.resolve();
    await Promise.resolve();
    expect(document.querySelector('.preset-item[data-id="p-0000000b"]')).toBeNull();
    saveButton().click();
    const save = sent.find((m): m is SaveSettings => m.type === 'save_settings')!;
    expect(save.presets.map((p) => p.id)).toEqual(['p-0000000a']);
    expect(byLabel('Name').value).toBe('Yui');
    expect(called).toEqual([]);
  });
});
