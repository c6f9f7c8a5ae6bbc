// The screen permission prompt: the backend asks to see a monitor and the
// user answers Allow once · Always for this character · Deny. The core
// decides what an answer means; this only shows the question and sends the
// answer back.

import './permission.css';
import { el } from './dom';
import { t } from './i18n';
import type { PermissionPrompt } from './protocol';

export type PermissionChoice = 'once' | 'always' | 'deny';

export class PermissionPromptView {
  readonly el: HTMLElement;
  private readonly text: HTMLElement;
  private readonly title: HTMLElement;
  private readonly always: HTMLButtonElement;
  private id = 0;

  constructor(answer: (id: number, choice: PermissionChoice) => void) {
    this.el = el('div');
    this.el.className = 'permission';
    this.el.setAttribute('role', 'alertdialog');
    this.el.setAttribute('aria-live', 'assertive');
    this.el.setAttribute('aria-label', t('permission.screen_label'));
    this.el.hidden = true;
    const title = (this.title = el('div'));
    title.className = 'permission-title';
    title.textContent = t('permission.screen_title');
    this.title = title;
    this.text = el('div');
    this.text.className = 'permission-text';
    const buttons = el('div');
    buttons.className = 'permission-buttons';
    const make = (choice: PermissionChoice, label: string) => {
      const b = el('button');
      b.type = 'button';
      b.className = `permission-${choice}`;
      b.textContent = label;
      b.addEventListener('click', () => {
        if (this.id !== 0) answer(this.id, choice);
      });
      return b;
    };
    this.always = make('always', t('permission.always_character'));
    buttons.append(make('once', t('permission.once')), this.always, make('deny', t('permission.deny')));
    this.el.append(title, this.text, buttons);
  }

  get open(): boolean {
    return !this.el.hidden;
  }

  apply(m: PermissionPrompt): void {
    this.id = m.id;
    this.el.hidden = m.id === 0;
    if (m.site) {
      // The browser tool asks to open a site: allowed per site.
      this.el.setAttribute('aria-label', t('permission.browser_label'));
      this.title.textContent = t('permission.browser_title');
      this.always.textContent = t('permission.always_site');
      this.text.title = '';
      this.text.textContent = t('permission.browser_text', { backend: m.backend, site: m.site });
      delete this.el.dataset.monitor;
      return;
    }
    this.always.textContent = t('permission.always_character');
    if (m.tool) {
      // An MCP tool's first call (docs/mcp.md): the same three answers.
      this.el.setAttribute('aria-label', t('permission.tool_label'));
      this.title.textContent = t('permission.tool_title');
      this.text.title = '';
      this.text.textContent = t('permission.tool_text', { backend: m.backend, tool: m.tool });
      delete this.el.dataset.monitor;
      return;
    }
    this.el.setAttribute('aria-label', t('permission.screen_label'));
    this.title.textContent = t('permission.screen_title');
    this.always.textContent = t('permission.always_character');
    // Plain words: "screen 2" counts from 1, with the output's name (DP-2)
    // when it says more than that — not "screen 1 (screen)" (Xvfb names
    // its output "screen"; the fallback label is "monitor 0"). The index
    // the backend used is in the tooltip.
    const named = m.label && !/^(screen|monitor)(\s*\d+)?$/i.test(m.label.trim());
    const n = String(m.monitor + 1);
    const where = named ? t('permission.screen_n_named', { n, name: m.label! }) : t('permission.screen_n', { n });
    this.text.title = m.label ? t('permission.monitor_named', { n: String(m.monitor), name: m.label }) : t('permission.monitor', { n: String(m.monitor) });
    this.text.textContent = m.id === 0 ? '' : t('permission.screen_text', { backend: m.backend, where });
    this.el.dataset.monitor = String(m.monitor);
  }
}
