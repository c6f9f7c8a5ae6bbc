// Importing a VRM model as a look (docs/looks.md, "Your own VRM model"):
// under Character → Look, a button opens a file picker and the row takes a
// dropped .vrm. The page checks what it can at once (the name, the size,
// the glTF binary header: checkModelFile) and posts the file to the core,
// which validates it in full (app/vrm) and makes a look folder of it; the
// answer either selects the new look in the form (Save applies it) or says
// what is wrong — the character keeps her look. For the VRM look chosen
// it shows the model's thumbnail (rendered here once from the model when
// the folder has none, and kept by the core); her options for it are
// lookoptions.ts.

import { el } from '../dom';
import { t } from '../i18n';
import type { PageMessage, VRMLookChoice } from '../protocol';

/** The largest model the core takes (app/lookfolder MaxModelBytes). */
export const MAX_MODEL_BYTES = 64 << 20;

/** What is wrong with a file before it is sent, or null: its name, its
 * size, its first 12 bytes (a binary glTF's header: "glTF", version 2,
 * the length, which must be the file's). */
export function checkModelFile(name: string, size: number, head: Uint8Array): string | null {
  if (!/\.(vrm|glb)$/i.test(name)) {
    if (/\.vrma$/i.test(name)) return t('look_import.animation', { name });
    return t('look_import.not_vrm', { name });
  }
  if (size > MAX_MODEL_BYTES) return t('look_import.too_large', { name, n: String(Math.ceil(size / (1 << 20))), max: String(MAX_MODEL_BYTES >> 20) });
  if (size < 20 || head.length < 12) return t('look_import.too_short', { name });
  const dv = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (dv.getUint32(0, true) !== 0x46546c67) return t('look_import.not_glb', { name });
  if (dv.getUint32(4, true) !== 2) return t('look_import.glb_version', { name, n: String(dv.getUint32(4, true)) });
  const declared = dv.getUint32(8, true);
  if (declared > size) return t('look_import.cut_short', { name, n: String(size), max: String(declared) });
  return null;
}

/** The core's answer to an import (app/core serveLookImport). */
export interface ImportAnswer { ok: boolean; look?: string; name?: string; error?: string }

export interface LookImportHost {
  send(m: PageMessage): boolean;
  /** Posts the model to the core's importer. */
  upload(file: File): Promise<ImportAnswer>;
  /** The model's URL on the view server (for its thumbnail). */
  modelURL(look: string): string;
  /** Renders a thumbnail (a PNG data URL) of model bytes; default: the VRM
   * renderer's, loaded on first use. */
  thumbnail?(bytes: ArrayBuffer): Promise<string>;
}

export class LookImport {
  readonly el: HTMLElement;
  private readonly pick: HTMLButtonElement;
  private readonly file: HTMLInputElement;
  private readonly status: HTMLElement;
  private readonly thumb: HTMLImageElement;
  private looks: VRMLookChoice[] = [];
  /** Thumbnails asked for (once per look per page). */
  private readonly rendering = new Set<string>();
  private busy = false;

  /** `choose(id)` selects an imported look in the form (unsaved). */
  constructor(private readonly host: LookImportHost, private readonly choose: (look: string) => void) {
    this.file = el('input', { class: 'look-file', attrs: { type: 'file', accept: '.vrm,.glb', hidden: true, 'aria-hidden': 'true', tabindex: -1 } });
    this.pick = el('button', { class: 'btn look-import', attrs: { type: 'button' } }, t('look_import.button'));
    this.status = el('div', { class: 'hint look-import-status', attrs: { role: 'status', 'aria-live': 'polite' } });
    this.thumb = el('img', { class: 'look-thumb', attrs: { alt: '', width: 64, height: 64 }, hidden: true });
    this.el = el('div', 'look-import-row',
      el('div', 'look-import-line', this.thumb, this.pick, el('span', 'hint', t('look_import.drop'))),
      this.file, this.status);
    this.pick.addEventListener('click', () => this.file.click());
    this.file.addEventListener('change', () => {
      const f = this.file.files?.[0];
      this.file.value = '';
      if (f) void this.importFile(f);
    });
    this.el.addEventListener('dragover', (e) => {
      if (e.dataTransfer && [...e.dataTransfer.types].includes('Files')) {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        this.el.dataset.drop = 'over';
      }
    });
    this.el.addEventListener('dragleave', () => delete this.el.dataset.drop);
    this.el.addEventListener('drop', (e) => {
      delete this.el.dataset.drop;
      const f = e.dataTransfer?.files?.[0];
      if (!f) return;
      e.preventDefault();
      void this.importFile(f);
    });
  }

  /** Shows the VRM looks' state and the look the form has chosen. */
  show(looks: readonly VRMLookChoice[] | null | undefined, current: string): void {
    this.looks = [...(looks ?? [])];
    const v = this.looks.find((l) => l.id === current);
    this.thumb.hidden = !v?.thumb;
    if (v?.thumb && this.thumb.getAttribute('src') !== v.thumb) this.thumb.src = v.thumb;
    for (const l of this.looks) if (!l.thumb) void this.renderThumb(l.id);
  }

  /** Checks a file, posts it, and selects the new look or says why not. */
  async importFile(f: File): Promise<void> {
    if (this.busy) return;
    const head = new Uint8Array(await f.slice(0, 12).arrayBuffer());
    const wrong = checkModelFile(f.name, f.size, head);
    if (wrong) {
      this.say(wrong, 'error');
      return;
    }
    this.busy = true;
    this.pick.disabled = true;
    this.say(t('look_import.importing', { name: f.name }), '');
    try {
      const a = await this.host.upload(f);
      if (a.ok && a.look) {
        this.say(t('look_import.imported', { name: a.name ?? f.name }), 'ok');
        this.choose(a.look);
      } else {
        this.say(t('look_import.failed', { name: f.name, reason: a.error ?? t('look_import.refused') }), 'error');
      }
    } catch (e) {
      this.say(t('look_import.failed', { name: f.name, reason: (e as Error).message }), 'error');
    } finally {
      this.busy = false;
      this.pick.disabled = false;
    }
  }

  private say(text: string, kind: '' | 'ok' | 'error'): void {
    this.status.textContent = text;
    if (kind) this.status.dataset.kind = kind;
    else delete this.status.dataset.kind;
  }

  private async renderThumb(look: string): Promise<void> {
    if (this.rendering.has(look)) return;
    this.rendering.add(look);
    try {
      const res = await fetch(this.host.modelURL(look), { credentials: 'omit', cache: 'no-store' });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const bytes = await res.arrayBuffer();
      const render = this.host.thumbnail ?? (async (b: ArrayBuffer) => (await import('../vrm/look')).renderThumbnail(b));
      const png = await render(bytes);
      this.host.send({ type: 'look_thumbnail', look, png });
    } catch (e) {
      console.warn(`yui: no thumbnail for ${look}:`, e);
    }
  }
}
