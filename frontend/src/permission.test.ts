import { describe, expect, it } from 'vitest';
import { PermissionPromptView, type PermissionChoice } from './permission';

describe('PermissionPromptView', () => {
  it('shows the question naming the backend and monitor, and sends each answer', () => {
    const answers: Array<[number, PermissionChoice]> = [];
    const v = new PermissionPromptView((id, c) => answers.push([id, c]));
    document.body.append(v.el);
    expect(v.open).toBe(false);
    v.apply({ type: 'permission', id: 7, backend: 'The demo backend', monitor: 1, label: 'DP-2', text: '' });
    expect(v.open).toBe(true);
    expect(v.el.textContent).toContain('The demo backend asks to see screen 2 (DP-2).');
    for (const c of ['once', 'always', 'deny'] as const) {
      (v.el.querySelector(`.permission-${c}`) as HTMLButtonElement).click();
    }
    expect(answers).toEqual([[7, 'once'], [7, 'always'], [7, 'deny']]);
  });

  it('names the screen once when its label says nothing more (issue 21: "screen 1 (screen)")', () => {
    const v = new PermissionPromptView(() => {});
    for (const label of ['screen', 'Screen 0', 'monitor 0', '']) {
      v.apply({ type: 'permission', id: 2, backend: 'The demo backend', monitor: 0, label, text: '' });
      expect(v.el.textContent).toContain('The demo backend asks to see screen 1.');
    }
    v.apply({ type: 'permission', id: 2, backend: 'The demo backend', monitor: 0, label: 'eDP-1', text: '' });
    expect(v.el.textContent).toContain('asks to see screen 1 (eDP-1).');
  });

  it("asks for an MCP tool's first call with the same answers, then for the screen again", () => {
    const answers: Array<[number, PermissionChoice]> = [];
    const v = new PermissionPromptView((id, c) => answers.push([id, c]));
    const id = 2 ** 48 + 1; // the MCP hub's ids (app/mcp): exact in a JS number
    v.apply({ type: 'permission', id, backend: 'Ollama', monitor: 0, label: '', text: '', tool: 'echo of the MCP server tools' });
    expect(v.el.textContent).toContain('Let her use a tool?');
    expect(v.el.textContent).toContain('Ollama asks to use echo of the MCP server tools.');
    expect(v.el.textContent).not.toContain('screen');
    expect(v.el.getAttribute('aria-label')).toBe('Tool permission');
    (v.el.querySelector('.permission-always') as HTMLButtonElement).click();
    expect(answers).toEqual([[id, 'always']]);
    v.apply({ type: 'permission', id: 3, backend: 'Ollama', monitor: 0, label: '', text: '' });
    expect(v.el.textContent).toContain('Share your screen?');
    expect(v.el.getAttribute('aria-label')).toBe('Screen permission');
  });

  it('hides on id 0 and then sends nothing', () => {
    const answers: unknown[] = [];
    const v = new PermissionPromptView((id, c) => answers.push([id, c]));
    v.apply({ type: 'permission', id: 3, backend: 'b', monitor: 0, label: '', text: '' });
    v.apply({ type: 'permission', id: 0, backend: '', monitor: 0, label: '', text: '' });
    expect(v.open).toBe(false);
    (v.el.querySelector('.permission-once') as HTMLButtonElement).click();
    expect(answers).toEqual([]);
  });
});
