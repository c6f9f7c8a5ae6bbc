// Her walk cycle (docs/desktop-life.md, "Cost"): two pre-rendered frames
// of her legs, each its own composited layer, swapped by an inline
// opacity, and the figure's bob as an inline `translate` on the figure's
// composited layer (.yui-motion). A step of the cycle changes the inline
// style of three elements that are layers already, so WebKit composites
// and repaints nothing: no class or attribute changes anywhere, the
// figure is never restyled or redrawn per step. The figure's own legs
// are hidden while the cycle runs (one repaint when she starts and one
// when she stops). A look folder brings its own two frames (walk-1.svg,
// walk-2.svg) or, without them, only bobs.
import './walk.css';
import type { MotionPreference, Scheduler } from './scheduler';

/** How long each frame of the cycle shows: a leg swap (and a bob) every
 * 300 ms, two frames a stride. Each swap is a frame WebKit presents
 * (about 8 ms of CPU under software rendering, docs/desktop-life.md). */
export const WALK_FRAME_MS = 300;

/** How far the figure bobs up on the second frame (CSS px). */
const BOB = '0px -3px';

// The legs' box in the figure's viewBox (200 × 240): both legs (16 × 22
// at x 80 and 104, y 206), swung ±16° about their tops, lie inside it.
const LEGS = { x: 72, y: 202, w: 56, h: 30 } as const;

const leg = (x: number, deg: number): string =>
  `<rect x="${x}" y="206" width="16" height="22" rx="7" transform="rotate(${deg} ${x + 8} 206)"/>`;

/** One frame of her legs: frame 0 swings the left leg back, 1 forward. */
const legsFrame = (frame: number): string => {
  const d = frame === 0 ? 16 : -16;
  return `<svg class="walk-frame" viewBox="${LEGS.x} ${LEGS.y} ${LEGS.w} ${LEGS.h}" xmlns="http://www.w3.org/2000/svg" aria-hidden="true"
    style="left:${(LEGS.x / 2).toFixed(2)}%;top:${((LEGS.y / 240) * 100).toFixed(3)}%;width:${(LEGS.w / 2).toFixed(2)}%;height:${((LEGS.h / 240) * 100).toFixed(3)}%">${leg(80, -d)}${leg(104, d)}</svg>`;
};

/** What the cycle draws: the built-in figure's legs, a look folder's own
 * two frames, or (a folder without them) the bob alone. */
type Kind = 'legs' | 'own' | 'bob';

export class WalkCycle {
  private timer = 0;
  private frame = 0;
  private walking = false;
  /** A look folder's own walk frames (two data: URLs), if it has them. */
  private own: [string, string] | null = null;
  private layers: HTMLElement | null = null;
  private frames: HTMLElement[] = [];

  constructor(
    private readonly el: HTMLElement,
    private readonly sched: Scheduler,
    private readonly motion: MotionPreference,
  ) {
    this.motion.onChange(() => this.sync());
  }

  /** She walks (or not): the cycle runs only while she does, motion is
   * allowed and she is drawn by the figure or a look folder's art. */
  set(walking: boolean): void {
    this.walking = walking;
    this.sync();
  }

  /** A look folder's own two walk frames, or null (the built-in legs, or
   * for a look folder's art the bob alone). Called when her look's art
   * changes: a cycle running starts again with what she now wears. */
  setOwn(frames: [string, string] | null): void {
    this.own = frames;
    if (this.timer) this.stop();
    this.sync();
  }

  /** The cycle runs. */
  get running(): boolean {
    return this.timer !== 0;
  }

  private kind(): Kind {
    if (this.el.dataset.art !== undefined) return this.own ? 'own' : 'bob';
    return 'legs';
  }

  private sync(): void {
    const want = this.walking && !this.motion.reduced() && this.el.dataset.renderer !== 'vrm';
    if (want && !this.timer) this.start();
    else if (!want && this.timer) this.stop();
  }

  private start(): void {
    const motion = this.el.querySelector<HTMLElement>('.yui-motion');
    if (!motion) return;
    const kind = this.kind();
    this.layers?.remove();
    this.layers = null;
    this.frames = [];
    if (kind !== 'bob') {
      const box = document.createElement('div');
      box.className = `walk-layers walk-${kind}`;
      box.setAttribute('aria-hidden', 'true');
      if (kind === 'legs') {
        // Her legs in the look's colour (the figure's own legs' fill).
        const fill = motion.querySelector('svg.yui-figure .body > rect')?.getAttribute('fill') ?? '#5b4a6b';
        box.style.color = fill;
        box.innerHTML = legsFrame(0) + legsFrame(1); // constant markup and a colour read from the figure
      } else {
        for (const url of this.own!) {
          const img = document.createElement('img');
          img.className = 'walk-frame';
          img.alt = '';
          img.draggable = false;
          if (url.startsWith('data:image/svg+xml')) img.src = url;
          box.append(img);
        }
      }
      motion.prepend(box);
      this.layers = box;
      this.frames = [...box.querySelectorAll<HTMLElement>('.walk-frame')];
    }
    this.el.dataset.walkCycle = kind;
    this.frame = 0;
    this.draw();
  }

  private stop(): void {
    this.sched.clearTimeout(this.timer);
    this.timer = 0;
    this.layers?.remove();
    this.layers = null;
    this.frames = [];
    const motion = this.el.querySelector<HTMLElement>('.yui-motion');
    if (motion && motion.style.translate !== '') motion.style.translate = '';
    delete this.el.dataset.walkCycle;
  }

  /** Shows the frame due and arms the next: inline opacity on the two
   * frame layers and the bob on the figure's layer, nothing else. */
  private draw(): void {
    const f = this.frame;
    this.frames.forEach((layer, i) => {
      const v = i === f ? '1' : '0';
      if (layer.style.opacity !== v) layer.style.opacity = v;
    });
    const motion = this.el.querySelector<HTMLElement>('.yui-motion');
    const bob = f === 1 ? BOB : '';
    if (motion && motion.style.translate !== bob) motion.style.translate = bob;
    this.frame = 1 - f;
    this.timer = this.sched.setTimeout(() => this.draw(), WALK_FRAME_MS);
  }
}
