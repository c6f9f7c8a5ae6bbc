import { beforeEach, describe, expect, it } from 'vitest';
import { PetView } from './pet';
import { FakeMotion, FakeScheduler } from './test-helpers';

describe('PetView popovers', () => {
  beforeEach(() => {
    document.body.innerHTML = '';
  });

  it('opens the thoughts panel and the tasks card one at a time', () => {
    const view = new PetView({ send: () => true, setInputRegion: () => {}, windowPosition: async () => null, moveWindow: () => {} },
      new FakeScheduler(), { motion: new FakeMotion() });
    view.mount(document.body);
    view.apply({ type: 'reasoning', turn_id: 't', text: 'Let me think.', streaming: false });
    view.apply({ type: 'delegations', items: [{ id: 'd', title: 'Research', started_at: 1, state: 'running' }] });
    const toggle = document.querySelector<HTMLButtonElement>('.reasoning-toggle')!;
    toggle.click();
    expect(view.reasoning.open).toBe(true);
    view.chip.chip.click();
    expect(view.chip.open).toBe(true);
    expect(view.reasoning.open).toBe(false);
    toggle.click();
    expect(view.reasoning.open).toBe(true);
    expect(view.chip.open).toBe(false);
  });
});
