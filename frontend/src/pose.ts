// Her body's pose (docs/desktop-life.md): the core's life room says what
// her body does (the `body` topic); this draws it on the character's
// element as data attributes that pose.css turns into the sitting,
// peeking and sleeping poses of every built-in look (and of a look
// folder's art, which takes the same transforms unless the folder draws
// the pose itself), and runs the walk cycle (src/walk.ts) while she
// walks. Composited transforms and opacity only; nothing runs while she
// is still.
import './pose.css';
import type { BodyPose } from './protocol';
import { WalkCycle } from './walk';
import type { MotionPreference, Scheduler } from './scheduler';

const POSTURES = new Set(['standing', 'sitting', 'peeking', 'walking', 'dragging', 'sleeping']);

/** Sets el's pose from the core's body message (unknown postures: standing). */
export function applyPose(el: HTMLElement, b: BodyPose): void {
  el.dataset.pose = POSTURES.has(b.posture) ? b.posture : 'standing';
  el.dataset.side = b.side === 'left' || b.side === 'right' ? b.side : '';
  el.dataset.facing = b.facing === 'left' || b.facing === 'right' ? b.facing : '';
  el.dataset.perched = String(b.perched === true);
}

/** Whether el shows her asleep. */
export const asleep = (el: HTMLElement): boolean => el.dataset.pose === 'sleeping';

/** A look folder's own pose drawings (docs/looks.md), by the posture they
 * draw: the file's name without .svg. */
const POSE_FILES: Readonly<Record<string, string>> = { sitting: 'sit', peeking: 'peek', sleeping: 'sleep' };

/** Her pose on the character's element: the posture's attributes, a look
 * folder's own pose drawing when it has one for the posture, and the walk
 * cycle. */
export class PoseView {
  private readonly walk: WalkCycle;
  /** A look folder's own poses (file stem → data: URL), or null. */
  private poses: Record<string, string> | null = null;
  private img: HTMLImageElement | null = null;

  constructor(private readonly el: HTMLElement, sched: Scheduler, motion: MotionPreference) {
    this.walk = new WalkCycle(el, sched, motion);
  }

  /** Applies the core's body message. */
  apply(b: BodyPose): void {
    applyPose(this.el, b);
    this.showPoseArt();
    this.walk.set(this.el.dataset.pose === 'walking');
  }

  /** Sets a look folder's own poses (from its look_art; null or empty: it
   * has none, or the look is built-in): the postures it draws show its
   * drawing, the others the built-in poses. */
  setPoses(poses: Record<string, string> | null | undefined): void {
    const p = poses && Object.keys(poses).length > 0 ? poses : null;
    this.poses = p;
    const w1 = p?.['walk-1'];
    const w2 = p?.['walk-2'];
    this.walk.setOwn(w1 && w2 ? [w1, w2] : null);
    this.showPoseArt();
    this.walk.set(this.el.dataset.pose === 'walking');
  }

  /** The walk cycle runs (tests). */
  get walking(): boolean {
    return this.walk.running;
  }

  private showPoseArt(): void {
    const file = POSE_FILES[this.el.dataset.pose ?? ''];
    const url = file && this.el.dataset.art !== undefined ? this.poses?.[file] : undefined;
    if (!url || !url.startsWith('data:image/svg+xml')) {
      if (this.el.dataset.poseArt !== undefined) delete this.el.dataset.poseArt;
      return;
    }
    if (!this.img || !this.img.isConnected) {
      const motion = this.el.querySelector<HTMLElement>('.yui-motion');
      if (!motion) return;
      this.img = document.createElement('img');
      this.img.className = 'pose-art';
      this.img.alt = '';
      this.img.draggable = false;
      motion.append(this.img);
    }
    if (this.img.getAttribute('src') !== url) this.img.src = url;
    this.el.dataset.poseArt = file;
  }
}
