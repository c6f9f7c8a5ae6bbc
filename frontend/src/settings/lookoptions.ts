// A character's VRM look options (docs/looks.md, "Options"), under
// Character → Look when the look chosen is a VRM look: breathing while
// idle and whether a pat or a poke starts a conversation. Each is hers —
// kept in the settings file with her (look_options), applied and saved
// at once — or the look's own default (its look.json), which each select
// names. A bad value is refused by the core naming the field.

import { t } from '../i18n';
import { el } from '../dom';
import type { CharacterLookOptions, PageMessage, VRMLookChoice } from '../protocol';

export interface LookOptionsHost {
  send(m: PageMessage): boolean;
}

export class LookOptionsSection {
  readonly el: HTMLElement;
  private readonly breathing: HTMLSelectElement;
  private readonly touch: HTMLSelectElement;
  private preset = '';

  constructor(private readonly host: LookOptionsHost) {
    this.breathing = el('select', { class: 'control', attrs: { id: 'look-breathing' } });
    this.touch = el('select', { class: 'control', attrs: { id: 'look-touch-turns' } });
    this.el = el('div', { class: 'look-options', hidden: true },
      el('label', { class: 'field-label', attrs: { for: 'look-breathing' } }, t('settings.look.idle')), this.breathing,
      el('label', { class: 'field-label', attrs: { for: 'look-touch-turns' } }, t('settings.look.touch')), this.touch,
      el('div', 'hint', t('settings.look.hint')));
    const send = () => {
      if (!this.preset) return;
      this.host.send({ type: 'look_options', preset: this.preset, breathing: this.breathing.value, touch_turns: this.touch.value });
    };
    this.breathing.addEventListener('change', send);
    this.touch.addEventListener('change', send);
  }

  /** Shows her options for the VRM look `vrm` (hidden for any other look,
   * and for a character not saved yet: `preset` ''). */
  show(vrm: VRMLookChoice | undefined, preset: string, o: CharacterLookOptions | undefined): void {
    this.preset = vrm ? preset : '';
    this.el.hidden = !vrm || !preset;
    if (!vrm) return;
    fill(this.breathing, [
      ['', t(vrm.breathing === 'low' ? 'settings.look.own_breathes' : 'settings.look.own_still')],
      ['low', t('settings.look.breathes')],
      ['off', t('settings.look.still')],
    ], o?.breathing ?? '');
    fill(this.touch, [
      ['', t(vrm.touch_turns ? 'settings.look.own_turns' : 'settings.look.own_reaction')],
      ['on', t('settings.look.turns')],
      ['off', t('settings.look.reaction')],
    ], o?.touch_turns ?? '');
  }
}

function fill(s: HTMLSelectElement, options: [string, string][], value: string): void {
  s.replaceChildren(...options.map(([v, label]) => {
    const o = el('option', '', label);
    o.value = v;
    return o;
  }));
  s.value = options.some(([v]) => v === value) ? value : '';
}
