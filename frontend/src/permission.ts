// The screen permission prompt: the backend asks to see a monitor and the
// user answers Allow once · Always for this character · Deny. The core
// decides what an answer means; this only shows the question and sends the
// answer back.

import './permission.css';
import { el } from './dom';
import type { PermissionPrompt } from './protocol';

export type PermissionChoice = 'once' | 'always' | 'deny';

export class PermissionPromptView {
  readonly el: HTMLElement;
  private readonly text: HTMLElement;
  private readonly title: HTMLElement;
  private id = 0;

  constructor(answer: (id: number, choice: PermissionChoice) => void) {
    this.el = el('div');
    this.el.className = 'permission';
    this.el.setAttribute('role', 'alertdialog');
    this.el.setAttribute('aria-live', 'assertive');
    this.el.setAttribute('aria-label', 'Screen permission');
    this.el.hidden = true;
    const title = (this.title = el('div'));
    title.className = 'permission-title';
    title.textContent = 'Share your screen?';
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
    buttons.append(make('once', 'Allow once'), make('always', 'Always for this character'), make('deny', 'Deny'));
    this.el.append(title, this.text, buttons);
  }

  get open(): boolean {
    return !this.el.hidden;
  }

  apply(m: PermissionPrompt): void {
    this.id = m.id;
    this.el.hidden = m.id === 0;
    if (m.tool) {
      // An MCP tool's first call (docs/mcp.md): the same three answers.
      this.el.setAttribute('aria-label', 'Tool permission');
      this.title.textContent = 'Let her use a tool?';
      this.text.title = '';
      this.text.textContent = `${m.backend} asks to use ${m.tool}.`;
      delete this.el.dataset.monitor;
      return;
    }
    this.el.setAttribute('aria-label', 'Screen permission');
    this.title.textContent = 'Share your screen?';
    // Plain words: "screen 2" counts from 1, with the output's name (DP-2)
    // when it says more than that — not "screen 1 (screen)" (Xvfb names
    // its output "screen"; the fallback label is "monitor 0"). The index
    // the backend used is in the tooltip.
    const named = m.label && !/^(screen|monitor)(\s*\d+)?$/i.test(m.label.trim());
    const where = named ? `screen ${m.monitor + 1} (${m.label})` : `screen ${m.monitor + 1}`;
    this.text.title = `Monitor ${m.monitor}${m.label ? ` (${m.label})` : ''} as the backend counts them`;
    this.text.textContent = m.id === 0 ? '' : `${m.backend} asks to see ${where}.`;
    this.el.dataset.monitor = String(m.monitor);
  }
}
