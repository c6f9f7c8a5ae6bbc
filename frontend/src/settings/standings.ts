// How a character feels about the user and the others (rate_relation), in
// her Permissions section: one row per standing with its band, the last
// reason, and a Reset button. The list is the core's (settings_state);
// Reset asks the core to forget that standing.
import { t } from '../i18n';
import { el } from '../dom';
import type { Standing } from '../protocol';

export class StandingsView {
  readonly el: HTMLElement;
  private readonly list: HTMLUListElement;
  private readonly none: HTMLElement;
  private preset: string | undefined;
  private rendered = '';

  constructor(private readonly reset: (preset: string, target: string) => void) {
    this.el = el('div', { class: 'standings', attrs: { role: 'group', 'aria-label': t('settings.standings.label') } });
    this.list = el('ul', 'standings-list');
    this.none = el('p', 'hint', t('settings.standings.none'));
    this.el.append(el('h4', '', t('settings.standings.title')), this.none, this.list);
  }

  /** Shows preset's standings (undefined: a character not saved yet). */
  show(preset: string | undefined, standings: readonly Standing[]): void {
    const key = JSON.stringify([preset, standings]);
    if (key === this.rendered) return;
    this.rendered = key;
    this.preset = preset;
    this.el.hidden = preset === undefined;
    this.none.hidden = standings.length > 0;
    this.list.replaceChildren(...standings.map((s) => this.row(s)));
  }

  private row(s: Standing): HTMLLIElement {
    const li = el('li', { class: 'standing', attrs: { 'data-target': s.target } });
    const label = el('span', 'standing-label', `${s.name}: ${s.value} (${s.band})`);
    li.append(label);
    if (s.reason) li.append(el('span', 'standing-reason hint', `— ${s.reason}`));
    const btn = el('button', { class: 'standing-reset', attrs: { type: 'button', 'aria-label': t('settings.standings.reset_label', { name: s.name }) } }, t('settings.standings.reset'));
    btn.addEventListener('click', () => {
      if (this.preset) this.reset(this.preset, s.target);
    });
    li.append(btn);
    return li;
  }
}
