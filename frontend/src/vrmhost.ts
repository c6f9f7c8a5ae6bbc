// The pet page's switch to a VRM look (docs/looks.md). This file is in the
// pet page's main chunk and small: the VRM renderer (src/vrm/look.ts with
// three.js and three-vrm) is a dynamic import, fetched only when the core
// says the character wears a VRM look. Until it has drawn, and whenever it
// cannot (no WebGL, a model that does not load), the built-in SVG figure
// stays; a failure is reported to the core once (`look_failed`), which logs
// why and shows one notice.

import type { Character, CharacterInput } from './character';
import type { Rect } from './host';
import type { PageMessage, VRMLook } from './protocol';
import type { Scheduler, MotionPreference } from './scheduler';

/** The part of the VRM look this host drives (src/vrm/look.ts). */
interface Look {
  readonly el: HTMLElement;
  set(s: CharacterInput): void;
  setLevels(at: number, stepMs: number, levels: readonly number[], tones?: readonly number[] | null): void;
  setPointer(p: { x: number; y: number } | null): void;
  click(x: number, y: number): void;
  region(): Rect[];
  dispose(): void;
}

export interface VrmHostOptions {
  character: Character;
  sched: Scheduler;
  motion: MotionPreference;
  send(m: PageMessage): void;
  /** The silhouette changed: the page reports its click region again. */
  changed(): void;
  /** A view-server path with the page's token (model and clip URLs). */
  resolve(path: string): string;
}

export class VrmHost {
  private look: Look | null = null;
  /** The look (and revision) shown or loading; '' none. */
  private wanted = '';
  private failed = '';
  private last: CharacterInput = { emotion: 'neutral', motion: 'idle', speaking: false };

  constructor(private readonly o: VrmHostOptions) {
    o.character.el.addEventListener('click', (e) => this.look?.click(e.clientX, e.clientY));
  }

  /** Whether a VRM look is drawn (the figure hidden). */
  get active(): boolean {
    return this.look !== null;
  }

  /** Applies look_art: a VRM look to draw, or none (the figure again). */
  show(look: string, vrm: VRMLook | null | undefined): void {
    const key = vrm ? `${look} ${vrm.model} ${vrm.breathing} ${JSON.stringify(vrm.emotions)} ${JSON.stringify(vrm.motions)}` : '';
    if (key === this.wanted) return;
    this.wanted = key;
    this.drop();
    if (!vrm || key === this.failed) return;
    void this.load(look, vrm, key);
  }

  private async load(look: string, vrm: VRMLook, key: string): Promise<void> {
    try {
      const { VrmLook } = await import('./vrm/look');
      const clips: Record<string, string> = {};
      for (const [name, path] of Object.entries(vrm.clips ?? {})) clips[name] = this.o.resolve(path);
      const made = await VrmLook.create({
        model: this.o.resolve(vrm.model),
        emotions: vrm.emotions ?? { neutral: {} },
        motions: vrm.motions ?? {},
        clips,
        breathing: vrm.breathing === 'low' ? 'low' : 'off',
      }, {
        sched: this.o.sched,
        touched: (kind, where) => this.o.send({ type: 'touch', kind, where }),
        regionChanged: () => this.o.changed(),
        reducedMotion: () => this.o.motion.reduced(),
      });
      if (this.wanted !== key) {
        made.dispose(); // another look was asked for meanwhile
        return;
      }
      this.look = made;
      made.set(this.last);
      this.o.character.setRenderer(made.el);
      this.o.changed();
    } catch (e) {
      if (this.wanted !== key) return;
      this.failed = key;
      const reason = e instanceof Error ? e.message : String(e);
      console.warn('yui: the VRM look falls back to the built-in one:', reason);
      this.o.send({ type: 'look_failed', look, reason });
    }
  }

  private drop(): void {
    if (!this.look) return;
    this.look.dispose();
    this.look = null;
    this.o.character.setRenderer(null);
    this.o.changed();
  }

  set(s: CharacterInput): void {
    this.last = s;
    this.look?.set(s);
  }

  setLevels(at: number, stepMs: number, levels: readonly number[], tones?: readonly number[] | null): void {
    this.look?.setLevels(at, stepMs, levels, tones);
  }

  setPointer(p: { x: number; y: number } | null): void {
    this.look?.setPointer(p);
  }

  /** The silhouette's bands, or null when no VRM look is drawn. */
  region(): Rect[] | null {
    return this.look ? this.look.region() : null;
  }
}
