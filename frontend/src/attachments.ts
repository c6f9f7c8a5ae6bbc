// Images attached in the composer (paste, drop, picker): thumbnails with a
// remove button each, at most MAX_IMAGES, sent with the typed line as data
// URLs. The view socket takes frames up to 1 MiB, so each image is fitted
// to MAX_IMAGE_CHARS of data URL (re-encoded smaller on a canvas when it is
// larger); the core fits them again for the backend.
import './attachments.css';
import { el } from './dom';
import { t } from './i18n';

export const MAX_IMAGES = 6;
export const MAX_IMAGE_CHARS = 140_000;
const MAX_SIDE = 1600;

export type ImageReader = (file: File) => Promise<string>;

export const readAsDataURL: ImageReader = (file) =>
  new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error ?? new Error('read failed'));
    r.readAsDataURL(file);
  });

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('not a readable image'));
    img.src = src;
  });
}

/** Re-encodes an image that is too large as a smaller JPEG. */
export async function fitImage(dataURL: string, maxChars = MAX_IMAGE_CHARS): Promise<string> {
  if (dataURL.length <= maxChars) return dataURL;
  const img = await loadImage(dataURL);
  const w0 = img.naturalWidth || 1;
  const h0 = img.naturalHeight || 1;
  let scale = Math.min(1, MAX_SIDE / Math.max(w0, h0));
  let out = dataURL;
  for (let i = 0; i < 10; i++) {
    const c = el('canvas');
    c.width = Math.max(1, Math.round(w0 * scale));
    c.height = Math.max(1, Math.round(h0 * scale));
    const ctx = c.getContext('2d');
    if (!ctx) return dataURL;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, c.width, c.height);
    ctx.drawImage(img, 0, 0, c.width, c.height);
    for (const q of [0.85, 0.7]) {
      out = c.toDataURL('image/jpeg', q);
      if (out.length <= maxChars) return out;
    }
    scale *= 0.75;
  }
  return out;
}

const isImage = (f: File): boolean => f.type.startsWith('image/');

export class AttachmentTray {
  readonly el: HTMLElement;
  private readonly urls: string[] = [];
  private pending = 0;

  constructor(
    private readonly changed: () => void,
    private readonly read: ImageReader = async (f) => fitImage(await readAsDataURL(f)),
  ) {
    this.el = el('div');
    this.el.className = 'attachments';
    this.el.hidden = true;
    this.el.setAttribute('aria-label', t('attach.label'));
  }

  get images(): string[] {
    return [...this.urls];
  }

  get count(): number {
    return this.urls.length;
  }

  /** Adds the image files among `files`, up to MAX_IMAGES in all. Resolves
   * once they are read; returns how many were added. */
  async add(files: Iterable<File>): Promise<number> {
    const imgs = [...files].filter(isImage);
    const room = MAX_IMAGES - this.urls.length - this.pending;
    const take = imgs.slice(0, Math.max(0, room));
    this.pending += take.length;
    let added = 0;
    await Promise.all(take.map(async (f) => {
      try {
        const url = await this.read(f);
        if (this.urls.length < MAX_IMAGES) {
          this.urls.push(url);
          added++;
        }
      } catch (err) {
        console.warn('yui: could not read an attached image', err);
      } finally {
        this.pending--;
      }
    }));
    if (added) this.render();
    return added;
  }

  remove(i: number): void {
    this.urls.splice(i, 1);
    this.render();
  }

  clear(): void {
    if (this.urls.length === 0) return;
    this.urls.length = 0;
    this.render();
  }

  private render(): void {
    const items = this.urls.map((url, i) => {
      const fig = el('figure');
      fig.className = 'thumb';
      const img = el('img');
      img.src = url;
      img.alt = `Image ${i + 1}`;
      const rm = el('button');
      rm.type = 'button';
      rm.className = 'thumb-remove';
      rm.textContent = '×';
      rm.setAttribute('aria-label', t('attach.remove', { n: String(i + 1) }));
      rm.addEventListener('click', () => this.remove(i));
      fig.append(img, rm);
      return fig;
    });
    this.el.replaceChildren(...items);
    this.el.hidden = items.length === 0;
    this.el.dataset.count = String(items.length);
    this.changed();
  }
}
