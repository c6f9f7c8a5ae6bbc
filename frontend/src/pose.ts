// Her body's pose (docs/desktop-life.md): the core's life room says what
// her body does (the `body` topic); this draws it on the character's
// element as data attributes that pose.css turns into the walk cycle and
// the sitting, peeking and sleeping poses of every built-in look (and of
// a look folder's art, which takes the same transforms). Composited
// transforms only; the walk cycle is the only animation, and it runs only
// while she walks.
import './pose.css';
import type { BodyPose } from './protocol';

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
