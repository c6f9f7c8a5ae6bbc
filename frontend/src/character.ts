// Yui's character: original art drawn as inline SVG. Idle is calm and
// cheap: nothing animates continuously; a single timer schedules a blink
// every few seconds. A blink is two repaints (eyes shut, eyes open) rather
// than a transition: measured under Xvfb, a 140 ms CSS transition per blink
// cost ~1.5 % of a core at idle, the two-frame blink a tenth of that. The
// blink sets an inline transform on the eye groups only: a class toggled
// on .character or the <svg> restyles the whole figure, which measured
// ~100 ms of CPU per blink in WebKitGTK under software GL. No
// requestAnimationFrame loop runs while the character is still.
//
// Emotions swap face parts (eyes, brows, mouth, blush, a small extra);
// motions are bounded CSS keyframe animations on the figure (character.css),
// except `thinking`, which loops gently while a turn runs and stops when
// the core sends another motion.
//
// The mouth: while a voice is heard, it follows the core's mouth levels
// (20 ms loudness windows stamped with when they are heard), quantised to
// the closed / half / open frames and held at least MOUTH_HOLD_MS per
// frame, with one timer armed for the next change only — silence between
// words and sentences arms nothing. While speech shows without sound (text
// only, muted, no sound server: `voiced: false`) it flaps on a timer at
// ~8 fps instead; that timer exists only while speaking.
//
// A mouth frame is shown like a blink: an inline visibility on the three
// mouth groups only (the face's mouth, the half and the open frame), so a
// change restyles and repaints those and nothing else. `data-mouth` on
// .character says which frame shows; no style rule reads it. The face's
// mouth is hidden, never display:none, while a talking frame shows: its
// fade-in (the `face-in` animation of a newly shown face part) would
// otherwise replay, 280 ms of repaints, each time the mouth closes. That
// replay was most of the mouth's cost in WebKitGTK: without it the pet
// window's CPU while speaking fell by half with lip-sync and by a third
// with the flap (docs/voice.md), and the closed mouth no longer flickers.

import { el, asset } from './dom';
import { MOTION_DEFS, motionPose, poseTransform, type MotionDef } from './motions';
import { mediaMotionPreference, realScheduler, type MotionPreference, type Scheduler } from './scheduler';

export type { Scheduler } from './scheduler';

const SKIN = '#ffe6d5';
const INK = '#2d2238';
const LIP = '#8a3c52';
const BROW = '#2a1b33';

const eyePair = (cls: string, dx: number, dy: number, rx: number, ry: number, hi: number): string =>
  [76, 124].map((cx, i) => `
      <g class="eye ${i === 0 ? 'eye-left' : 'eye-right'} ${cls}">
        <ellipse cx="${cx + dx}" cy="${104 + dy}" rx="${rx}" ry="${ry}" fill="${INK}"/>
        <circle cx="${cx + dx - 3}" cy="${99 + dy}" r="${hi}" fill="#fff"/>
        <circle cx="${cx + dx + 3}" cy="${109 + dy}" r="1.6" fill="#fff"/>
      </g>`).join('');

const line = (d: string, w = 3.2, color = INK): string =>
  `<path d="${d}" stroke="${color}" stroke-width="${w}" fill="none" stroke-linecap="round" stroke-linejoin="round"/>`;

/** Face parts: each part has variants, one shown at a time. */
const PARTS: Record<string, Record<string, string>> = {
  eyes: {
    open: eyePair('', 0, 0, 9, 12.5, 3.6),
    bright: eyePair('', 0, -1, 10, 13.5, 4.4) +
      `<path d="M79 110 l1.4 -3 l1.4 3 l-1.4 3 Z M127 110 l1.4 -3 l1.4 3 l-1.4 3 Z" fill="#fff"/>`,
    glance: eyePair('', -2, -2, 9, 12, 3.2),
    teary: eyePair('', 0, 1, 9, 12, 4.2) +
      line('M68 114 Q76 118 84 114 M116 114 Q124 118 132 114', 2, '#8fd0ff'),
    angry: eyePair('', 0, 2, 9, 11, 3) +
      `<path d="M62 88 L90 98 L90 90 L62 84 Z M138 88 L110 98 L110 90 L138 84 Z" fill="${SKIN}"/>` +
      line('M65 91 L88 99 M135 91 L112 99', 2.6),
    wide: [76, 124].map((cx) => `
      <g class="eye">
        <ellipse cx="${cx}" cy="103" rx="10.5" ry="13.5" fill="#fff" stroke="${INK}" stroke-width="2.4"/>
        <circle cx="${cx}" cy="104" r="4.6" fill="${INK}"/>
        <circle cx="${cx - 1.5}" cy="102.5" r="1.4" fill="#fff"/>
      </g>`).join(''),
    happy: line('M66 107 Q76 94 86 107 M114 107 Q124 94 134 107', 3.6),
    content: line('M66 102 Q76 111 86 102 M114 102 Q124 111 134 102', 3.4),
    half: [76, 124].map((cx) => `
      <g class="eye">
        <path d="M${cx - 9} 104 L${cx + 9} 104 Q${cx + 9} 116 ${cx} 116 Q${cx - 9} 116 ${cx - 9} 104 Z" fill="${INK}"/>
        <circle cx="${cx - 3}" cy="108" r="2" fill="#fff"/>
      </g>`).join('') + line('M65 104 L87 104 M113 104 L135 104', 3),
    squeeze: line('M67 97 L84 104 L67 111 M133 97 L116 104 L133 111', 3.6),
  },
  brows: {
    soft: line('M67 88 Q76 84 85 87 M115 87 Q124 84 133 88', 2.6, BROW),
    raised: line('M67 84 Q76 79 85 83 M115 83 Q124 79 133 84', 2.6, BROW),
    angry: line('M66 82 L87 90 M134 82 L113 90', 3.2, BROW),
    sad: line('M66 89 Q77 86 86 81 M134 89 Q123 86 114 81', 2.8, BROW),
    high: line('M66 81 Q76 74 86 80 M114 80 Q124 74 134 81', 2.6, BROW),
    flat: line('M67 89 Q76 87 85 89 M115 89 Q124 87 133 89', 2.6, BROW),
    right_up: line('M67 89 L85 88 M115 83 Q124 78 133 82', 2.6, BROW),
    left_up: line('M67 82 Q76 77 85 82 M115 88 L133 89', 2.6, BROW),
  },
  mouth: {
    smile: line('M93 127 Q100 133 107 127', 3, LIP),
    grin: `<path d="M89 124 Q100 127 111 124 Q109 139 100 139 Q91 139 89 124 Z" fill="${LIP}"/>
      <path d="M94 134 Q100 130 106 134 Q104 138 100 138 Q96 138 94 134 Z" fill="#ff8fa3"/>`,
    gritted: `<path d="M89 127 L111 127 L109 135 L91 135 Z" fill="#fff" stroke="${LIP}" stroke-width="2.4" stroke-linejoin="round"/>` +
      line('M90 131 L110 131 M96 127 L96 135 M104 127 L104 135', 1.2, LIP),
    frown: line('M93 133 Q100 126 107 133', 3, LIP),
    wide_smile: line('M89 126 Q100 135 111 126', 2.6, LIP),
    o: `<ellipse cx="100" cy="131" rx="4.6" ry="6" fill="${LIP}"/>`,
    flat: line('M95 131 L107 129', 3, LIP),
    cat: line('M91 127 Q95.5 133 100 128.5 Q104.5 133 109 127', 2.6, LIP),
    small_o: `<ellipse cx="100" cy="131" rx="3" ry="2.4" fill="${LIP}"/>`,
    wavy: line('M89 131 Q92.5 127 96 131 Q99.5 135 103 131 Q106.5 127 110 131', 2.6, LIP),
  },
  extra: {
    none: '',
    sparkle: `<path d="M40 70 l2.5 -7 l2.5 7 l7 2.5 l-7 2.5 l-2.5 7 l-2.5 -7 l-7 -2.5 Z M176 78 l1.8 -5 l1.8 5 l5 1.8 l-5 1.8 l-1.8 5 l-1.8 -5 l-5 -1.8 Z" fill="#ffd166"/>`,
    vein: '<g transform="translate(16 2)">' + line('M150 52 q6 0 6 -6 M162 46 q0 6 6 6 M168 58 q-6 0 -6 6 M156 64 q0 -6 -6 -6', 2.6, '#e04a5f') + '</g>',
    tear: `<path d="M70 116 Q66 124 70 128 Q74 124 70 116 Z" fill="#8fd0ff" stroke="#5fb4ea" stroke-width="1"/>`,
    bang: `<path d="M162 30 L168 30 L166 50 L164 50 Z" fill="#e04a5f"/><circle cx="165" cy="57" r="3" fill="#e04a5f"/>`,
    question: '<g transform="translate(10 -6)">' + line('M156 40 Q156 30 164 30 Q172 30 172 38 Q172 44 164 46 L164 52', 3.2, '#8c6fd6') +
      `<circle cx="164" cy="59" r="2.4" fill="#8c6fd6"/></g>`,
    thought: `<g fill="#fff" stroke="#b9a4e8" stroke-width="1.6" transform="translate(12 2)"><circle cx="156" cy="62" r="3"/><circle cx="165" cy="50" r="4.5"/><circle cx="177" cy="35" r="7"/></g>`,
    note: `<g fill="#8c6fd6" transform="translate(14 0)"><ellipse cx="160" cy="60" rx="4.5" ry="3.4" transform="rotate(-20 160 60)"/><path d="M163.5 59 L163.5 42 Q168 44 171 48 L169.5 49 Q167 47 165.5 46.5 L165.5 59 Z"/></g>`,
    z: '<g transform="translate(12 -2)">' + line('M150 58 h8 l-8 9 h8 M162 40 h11 l-11 12 h11', 2.6, '#8c6fd6') + '</g>',
    sweat: `<path d="M162 76 Q156 86 162 90 Q168 86 162 76 Z" fill="#bfe6ff" stroke="#6fbfee" stroke-width="1.2"/>`,
    fluster: `<path d="M162 76 Q156 86 162 90 Q168 86 162 76 Z" fill="#bfe6ff" stroke="#6fbfee" stroke-width="1.2"/>` +
      line('M56 122 l4 -7 M62 123 l4 -7 M68 124 l4 -7 M130 124 l4 -7 M136 123 l4 -7 M142 122 l4 -7', 1.6, '#e8627c'),
  },
};

interface Face { eyes: string; brows: string; mouth: string; extra: string; blush: number; tilt: number }

/** The ten default emotions (client-notes §4), each a distinct face. */
export const EMOTIONS: Readonly<Record<string, Face>> = {
  neutral: { eyes: 'open', brows: 'soft', mouth: 'smile', extra: 'none', blush: 0.45, tilt: 0 },
  happy: { eyes: 'happy', brows: 'raised', mouth: 'grin', extra: 'sparkle', blush: 0.7, tilt: -2 },
  angry: { eyes: 'angry', brows: 'angry', mouth: 'gritted', extra: 'vein', blush: 0.2, tilt: 0 },
  sad: { eyes: 'teary', brows: 'sad', mouth: 'frown', extra: 'tear', blush: 0.25, tilt: 3 },
  relaxed: { eyes: 'content', brows: 'flat', mouth: 'wide_smile', extra: 'note', blush: 0.55, tilt: -3 },
  surprised: { eyes: 'wide', brows: 'high', mouth: 'o', extra: 'bang', blush: 0.35, tilt: 0 },
  thinking: { eyes: 'glance', brows: 'right_up', mouth: 'flat', extra: 'thought', blush: 0.35, tilt: -5 },
  curious: { eyes: 'bright', brows: 'left_up', mouth: 'cat', extra: 'question', blush: 0.45, tilt: 7 },
  sleepy: { eyes: 'half', brows: 'flat', mouth: 'small_o', extra: 'z', blush: 0.4, tilt: 5 },
  embarrassed: { eyes: 'squeeze', brows: 'sad', mouth: 'wavy', extra: 'fluster', blush: 1, tilt: -3 },
};

/** Agent-selectable motions: each a bounded keyframe animation in character.css. */
export const MOTIONS = ['happy', 'laugh', 'embarrassed', 'sheepish', 'calm', 'sleeping', 'idle_lively', 'dance', 'sulk'] as const;

/** Client-only motions the page draws. `window_sit` is not drawn (it needs a
 * sitting pose on another window's edge) and falls back to `idle`. */
export const CLIENT_MOTIONS = ['idle', 'thinking', 'drag', 'peek', 'walk'] as const;

const ALL_MOTIONS = new Set<string>([...MOTIONS, ...CLIENT_MOTIONS]);

export const resolveEmotion = (id: string): string => (Object.prototype.hasOwnProperty.call(EMOTIONS, id) ? id : 'neutral');
export const resolveMotion = (id: string): string => (ALL_MOTIONS.has(id) ? id : 'idle');

function partsSVG(part: string): string {
  return Object.entries(PARTS[part]!)
    .map(([v, body]) => `<g data-v="${v}" display="none">${body}</g>`)
    .join('');
}

/** A built-in look: the figure's colours and her hair accessory. Every look
 * draws all ten emotions (the face parts are shared). */
export interface Palette {
  label: string;
  hairBack: string;
  hair: string;
  outfit: string;
  outfitShade: string;
  sleeve: string;
  legs: string;
  accessory: string;
}

const STAR_CLIP = `<g class="clip" transform="translate(146 56) rotate(18)">
      <path d="M0 -9 L2.6 -2.8 L9 -2.8 L3.8 1.2 L5.6 7.6 L0 3.8 L-5.6 7.6 L-3.8 1.2 L-9 -2.8 L-2.6 -2.8 Z" fill="#ffd166" stroke="#e8a93a" stroke-width="1"/>
    </g>`;
const RIBBON = `<g class="clip" transform="translate(142 50) rotate(14)">
      <path d="M0 0 L-13 -8 L-13 8 Z M0 0 L13 -8 L13 8 Z" fill="#ff6f91" stroke="#d94f72" stroke-width="1" stroke-linejoin="round"/>
      <circle cx="0" cy="0" r="3.6" fill="#d94f72"/>
    </g>`;
const FLOWER = `<g class="clip" transform="translate(148 58)">
      <g fill="#ffffff" stroke="#9fc3e6" stroke-width="1">
        <circle cx="0" cy="-6" r="4.4"/><circle cx="5.7" cy="-1.9" r="4.4"/><circle cx="3.5" cy="4.9" r="4.4"/>
        <circle cx="-3.5" cy="4.9" r="4.4"/><circle cx="-5.7" cy="-1.9" r="4.4"/>
      </g>
      <circle cx="0" cy="0" r="3" fill="#ffd166"/>
    </g>`;

/** The built-in looks, by the id a preset's `look` names. `yui` is the
 * default (and the app icon's). */
export const LOOKS: Readonly<Record<string, Palette>> = {
  yui: { label: 'Yui — lavender hoodie', hairBack: '#3f2d4a', hair: '#4a3457', outfit: '#b9a4e8', outfitShade: '#9d86d6', sleeve: '#a892e0', legs: '#5b4a6b', accessory: STAR_CLIP },
  mika: { label: 'Mika — ginger, mint jacket', hairBack: '#a8441f', hair: '#c95a2c', outfit: '#6cc8b4', outfitShade: '#44a692', sleeve: '#5bb9a5', legs: '#2f5d62', accessory: RIBBON },
  sora: { label: 'Sora — navy, mustard sweater', hairBack: '#1b2f4d', hair: '#243d63', outfit: '#f0c04a', outfitShade: '#d29f2a', sleeve: '#e6b23c', legs: '#4a4036', accessory: FLOWER },
};

export const resolveLook = (id: string): string => (Object.prototype.hasOwnProperty.call(LOOKS, id) ? id : 'yui');

// Head parts shared by the page's figure and the app icon (iconSVG).
const hairBack = (p: Palette): string => `<path d="M30 96 C28 40 70 20 100 22 C130 20 172 40 170 96 L176 152 C164 160 150 154 146 142 L54 142 C50 154 36 160 24 152 Z" fill="${p.hairBack}"/>`;
const HEAD = `<circle cx="100" cy="96" r="64" fill="${SKIN}"/>`;
const BLUSH = `<ellipse cx="64" cy="120" rx="11" ry="6" fill="#ff9fb0"/>
      <ellipse cx="136" cy="120" rx="11" ry="6" fill="#ff9fb0"/>`;
const bangs = (p: Palette): string => `<path class="bangs" d="M34 100 C30 40 70 24 100 25 C130 24 170 40 166 100 L158 82 L150 94 L141 70 L129 88 L117 64 L105 84 L93 62 L81 86 L69 68 L58 94 L47 78 Z" fill="${p.hair}"/>`;
const ahoge = (p: Palette): string => `<path class="ahoge" d="M100 26 C96 10 108 4 116 8" stroke="${p.hair}" stroke-width="5" fill="none" stroke-linecap="round"/>`;

const figureSVG = (p: Palette): string => `
<svg class="yui-figure" viewBox="0 0 200 240" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Yui">
  <ellipse cx="100" cy="233" rx="52" ry="6" fill="rgba(40,20,50,0.18)"/>
  <g class="hair-back tilt">
    ${hairBack(p)}
  </g>
  <g class="body">
    <rect x="80" y="206" width="16" height="22" rx="7" fill="${p.legs}"/>
    <rect x="104" y="206" width="16" height="22" rx="7" fill="${p.legs}"/>
    <path d="M62 158 C66 146 82 140 100 140 C118 140 134 146 138 158 L150 212 C130 220 70 220 50 212 Z" fill="${p.outfit}"/>
    <path d="M78 146 C86 156 114 156 122 146 L118 142 C110 148 90 148 82 142 Z" fill="${p.outfitShade}"/>
    <path d="M97 160 L103 160 L102 190 L98 190 Z" fill="${p.outfitShade}"/>
    <ellipse cx="56" cy="184" rx="10" ry="20" transform="rotate(14 56 184)" fill="${p.sleeve}"/>
    <ellipse cx="144" cy="184" rx="10" ry="20" transform="rotate(-14 144 184)" fill="${p.sleeve}"/>
    <circle cx="52" cy="202" r="8" fill="${SKIN}"/>
    <circle cx="148" cy="202" r="8" fill="${SKIN}"/>
  </g>
  <g class="head tilt">
    ${HEAD}
    <g class="blush" opacity="0.45">
      ${BLUSH}
    </g>
    <g class="face" data-part="eyes">${partsSVG('eyes')}</g>
    ${bangs(p)}
    <g class="face" data-part="brows">${partsSVG('brows')}</g>
    ${ahoge(p)}
    ${p.accessory}
    <g class="face" data-part="extra">${partsSVG('extra')}</g>
  </g>
</svg>`;

/** The mouth's box in the figure's viewBox: every mouth (the faces' and
 * the talking frames) lies inside it, and nothing else drawn there is
 * above the mouth, so the mouth can be drawn over the figure. */
const MOUTH_BOX = { x: 84, y: 118, w: 32, h: 26 } as const;

/** One mouth layer: a small <svg> of the mouth's box over the figure, its
 * own composited layer (character.css), so a mouth change repaints that
 * box only and never the figure. */
const mouthLayer = (cls: string, body: string): string =>
  `<svg class="mouth-layer ${cls}" viewBox="${MOUTH_BOX.x} ${MOUTH_BOX.y} ${MOUTH_BOX.w} ${MOUTH_BOX.h}" xmlns="http://www.w3.org/2000/svg" aria-hidden="true"
    style="left:${(MOUTH_BOX.x / 2).toFixed(2)}%;top:${((MOUTH_BOX.y / 240) * 100).toFixed(3)}%;width:${(MOUTH_BOX.w / 2).toFixed(2)}%;height:${((MOUTH_BOX.h / 240) * 100).toFixed(3)}%">${body}</svg>`;

/** The mouth over the figure: the face's mouths, the half and the open
 * talking frame, each in a layer of its own; the whole tilts with the
 * head (Character.setEmotion). */
const MOUTH_HTML = `<div class="yui-mouth" aria-hidden="true">
  ${mouthLayer('mouth-face', `<g class="face" data-part="mouth">${partsSVG('mouth')}</g>`)}
  ${mouthLayer('mouth-talk', `<g class="talk" data-frame="1"><ellipse cx="100" cy="130" rx="5" ry="3.4" fill="${LIP}"/></g>`)}
  ${mouthLayer('mouth-talk', `<g class="talk" data-frame="2"><ellipse cx="100" cy="130.5" rx="6" ry="6" fill="${LIP}"/><ellipse cx="100" cy="134" rx="3.6" ry="2" fill="#ff8fa3"/></g>`)}
</div>`;

/**
 * The app icon: the character's head with one emotion's face (neutral by
 * default), as a standalone SVG document cropped square to the head. It is
 * the source of every icon: `make icons` renders it to build/appicon.png
 * (1024 px) and derives the rest from that.
 */
export function iconSVG(emotion = 'neutral', size = 1024): string {
  const face = EMOTIONS[resolveEmotion(emotion)]!;
  const p = LOOKS.yui!;
  const part = (p: 'eyes' | 'brows' | 'mouth'): string => PARTS[p]![face[p]]!;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="18 0 164 164" width="${size}" height="${size}">
  ${hairBack(p)}
  ${HEAD}
  <g opacity="${face.blush}">
      ${BLUSH}
  </g>
  ${part('eyes')}
  ${part('mouth')}
  ${bangs(p)}
  ${part('brows')}
  ${ahoge(p)}
  ${p.accessory}
</svg>
`;
}

/** Blink timing: one blink every 5–10 s, each lasting BLINK_MS. */
export const BLINK_MIN_MS = 5000;
export const BLINK_SPREAD_MS = 5000;
export const BLINK_MS = 140;
/** Resting: once nothing has happened to her for RESTING_AFTER_MS (no
 * turn, no speech, no motion, no emotion), she blinks every 20–30 s, as
 * a drowsy character does; anything that happens wakes her at once. Each
 * blink is two repaints of the figure, which were most of what the idle
 * tree did that a bare window does not (docs/performance.md). */
export const RESTING_AFTER_MS = 60_000;
export const REST_BLINK_MIN_MS = 20_000;
export const REST_BLINK_SPREAD_MS = 10_000;

/** Mouth flap while speaking: ~8 fps over a closed, half, open, half cycle. */
export const MOUTH_FRAME_MS = 125;
const MOUTH_CYCLE = [1, 2, 1, 0] as const;

/** The motions' frame clock (src/motions.ts): a pose every 125 ms while
 * a motion plays, none otherwise. A mouth change due within
 * MOTION_MERGE_MS of a motion frame draws that frame with it, so the two
 * share one composite instead of two. */
export const MOTION_FRAME_MS = 125;
export const MOTION_MERGE_MS = 60;

/** Lip-sync: a mouth frame is held at least this long, so the mouth
 * changes at most as often as the fixed flap does (8 times a second). */
export const MOUTH_HOLD_MS = 125;
/** Level (0–100, relative to the sentence's loudest window) from which the
 * mouth is half open, and fully open. */
export const MOUTH_HALF = 20;
export const MOUTH_OPEN = 55;

/** The mouth frame for a level. */
export const mouthFrame = (level: number): number => (level >= MOUTH_OPEN ? 2 : level >= MOUTH_HALF ? 1 : 0);

/** The mouth groups of a figure, by frame: the face's mouth, then the
 * half and the open talking frame. */
const mouthGroups = (mouth: HTMLElement): SVGGElement[] => [
  mouth.querySelector<SVGGElement>('[data-part="mouth"]')!,
  mouth.querySelector<SVGGElement>('.talk[data-frame="1"]')!,
  mouth.querySelector<SVGGElement>('.talk[data-frame="2"]')!,
];

export interface CharacterInput { emotion: string; motion: string; speaking: boolean; voiced?: boolean }

/** One mouth level as heard: frame from t (epoch ms) to t + step. */
interface Level { t: number; step: number; frame: number }

export class Character {
  readonly el: HTMLElement;
  /** What the motions move (character.css): the figure, the mouth over
   * it and a look folder's art, as one composited layer. */
  private body: HTMLElement;
  /** The mouth's layers over the figure (MOUTH_HTML). */
  private mouth: HTMLElement;
  private svg: SVGSVGElement;
  private eyes: SVGGElement[];
  /** The face's mouth (frame 0) and the talking frames 1 and 2. */
  private mouths: SVGGElement[];
  /** A look folder's art (emotion → data: URL), or null for a built-in look. */
  private art: Record<string, string> | null = null;
  private artImg: HTMLImageElement | null = null;
  private blinkTimer = 0;
  /** The armed blink is a resting one (REST_BLINK_*). */
  private restingBlink = false;
  /** When something last happened to her (epoch ms). */
  private lastActive: number;
  private mouthTimer = 0;
  private mouthStep = 0;
  private speaking = false;
  private voiced = false;
  private running = false;
  /** Lip-sync levels still to be heard, in time order. */
  private levels: Level[] = [];
  private lipTimer = 0;
  /** When the shown lip-sync frame last changed (epoch ms). */
  private lipChanged = -Infinity;
  /** When the armed mouth timer (flap or lip-sync) fires (epoch ms). */
  private mouthDue = Infinity;
  /** The motion playing (the frame clock runs), since motionStart. */
  private motionDef: MotionDef | null = null;
  private motionStart = 0;
  private motionTimer = 0;

  constructor(
    private readonly sched: Scheduler = realScheduler,
    private readonly motion: MotionPreference = mediaMotionPreference(),
  ) {
    this.lastActive = this.sched.now();
    this.el = el('div');
    this.el.className = 'character';
    this.body = el('div', 'yui-motion');
    this.body.append(asset(figureSVG(LOOKS.yui!) + MOUTH_HTML)); // constant markup, no outside text
    this.el.append(this.body);
    this.el.dataset.look = 'yui';
    this.svg = this.body.querySelector('svg')!;
    this.mouth = this.body.querySelector('.yui-mouth')!;
    this.eyes = [...this.svg.querySelectorAll<SVGGElement>('.eye')];
    this.mouths = mouthGroups(this.mouth);
    this.el.dataset.speaking = 'false';
    this.showMouth(0);
    this.setEmotion('neutral');
    this.setMotion('idle');
    this.syncReduced();
    this.motion.onChange(() => {
      this.syncReduced();
      this.syncMouth();
      this.playMotion();
    });
  }

  /** Applies the core's `character` message. Unknown ids fall back. */
  set(s: CharacterInput): void {
    if (s.speaking || resolveMotion(s.motion) !== 'idle' || resolveEmotion(s.emotion) !== 'neutral') this.wake();
    this.setEmotion(s.emotion);
    this.setMotion(s.motion);
    this.voiced = s.voiced === true;
    this.el.dataset.voiced = String(this.voiced);
    this.setSpeaking(s.speaking);
  }

  /** Applies the core's `mouth` message: levels (0–100) heard from `at`
   * (epoch ms), one per `stepMs`. No levels: the sound stopped — the
   * mouth closes and what was pending is dropped. */
  setLevels(at: number, stepMs: number, levels: readonly number[]): void {
    if (levels.length > 0) this.wake();
    // Levels from `at` on replace any still pending there.
    this.levels = this.levels.filter((l) => l.t < at);
    if (levels.length === 0 || stepMs <= 0) {
      this.levels = [];
    } else {
      levels.forEach((v, i) => this.levels.push({ t: at + i * stepMs, step: stepMs, frame: mouthFrame(v) }));
    }
    this.syncMouth();
  }

  /** Lip-sync levels waiting to be heard (tests). */
  get pendingLevels(): number {
    return this.levels.length;
  }

  /** Draws the built-in look `id` (unknown ids: yui). A look folder's art,
   * when set, is shown instead (setArt). */
  setLook(id: string): void {
    const look = resolveLook(id);
    if (this.el.dataset.look === look) return;
    const shut = this.blinking;
    const next = asset(figureSVG(LOOKS[look]!)).querySelector('svg')!; // constant markup, no outside text
    next.setAttribute('aria-label', this.svg.getAttribute('aria-label') ?? 'Yui');
    this.svg.replaceWith(next);
    this.svg = next;
    this.eyes = [...next.querySelectorAll<SVGGElement>('.eye')];
    this.el.dataset.look = look;
    const e = this.el.dataset.emotion ?? 'neutral';
    delete this.el.dataset.emotion;
    this.setEmotion(e);
    if (this.art) this.svg.setAttribute('display', 'none');
    if (shut) this.setEyesShut(true);
  }

  /** Shows a look folder's art (emotion → sanitised SVG as a data: URL,
   * drawn as an <img>, so nothing in it runs or loads), or, with null,
   * the built-in figure again. The figure's motions still apply; blinks
   * and the mouth are the built-in figure's only. */
  setArt(art: Record<string, string> | null): void {
    this.art = art && Object.keys(art).length > 0 ? art : null;
    if (!this.art) {
      this.artImg?.remove();
      this.artImg = null;
      this.svg.removeAttribute('display');
      delete this.el.dataset.art;
      return;
    }
    if (!this.artImg) {
      this.artImg = el('img', 'yui-figure look-art');
      this.artImg.alt = '';
      this.artImg.draggable = false;
      this.body.append(this.artImg);
    }
    this.svg.setAttribute('display', 'none');
    this.el.dataset.art = 'folder';
    this.showArt();
  }

  /** Draws her with another renderer's element (the VRM look,
   * src/vrmhost.ts) in her box instead of the figure and art, which stop
   * (no blink timer); null: the figure again. */
  setRenderer(r: HTMLElement | null): void {
    this.el.querySelector(':scope > .look-renderer')?.remove();
    if (r) {
      r.classList.add('look-renderer');
      this.el.append(r);
      this.el.dataset.renderer = 'vrm';
      if (this.running) {
        this.stop();
        this.resume = true;
      }
    } else {
      delete this.el.dataset.renderer;
      if (this.resume) this.start();
      this.resume = false;
    }
  }

  private resume = false;

  private showArt(): void {
    if (!this.art || !this.artImg) return;
    const url = this.art[this.el.dataset.emotion ?? 'neutral'] ?? this.art.neutral ?? '';
    if (url.startsWith('data:image/svg+xml') && this.artImg.getAttribute('src') !== url) this.artImg.src = url;
  }

  setEmotion(id: string): void {
    const e = resolveEmotion(id);
    if (this.el.dataset.emotion === e) return;
    this.el.dataset.emotion = e;
    this.showArt();
    const face = EMOTIONS[e]!;
    for (const part of ['eyes', 'brows', 'mouth', 'extra'] as const) {
      const want = face[part];
      for (const g of this.body.querySelectorAll<SVGGElement>(`[data-part="${part}"] > [data-v]`)) {
        g.setAttribute('display', g.dataset.v === want ? 'inline' : 'none');
      }
    }
    this.svg.querySelector('.blush')!.setAttribute('opacity', String(face.blush));
    // The tilt eases (a CSS transition that runs only on this change);
    // the mouth's layers tilt with the head.
    for (const t of [...this.svg.querySelectorAll<SVGGElement>('.tilt'), this.mouth]) {
      t.style.transform = face.tilt ? `rotate(${face.tilt}deg)` : '';
    }
  }

  /** Plays motion `id` (unknown ids: idle) from its start, unless it is
   * the motion already set (as a CSS animation would not restart). */
  setMotion(id: string): void {
    const m = resolveMotion(id);
    if (this.el.dataset.motion === m) return;
    this.el.dataset.motion = m;
    this.motionStart = this.sched.now();
    this.playMotion();
  }

  /** The frame clock runs (a motion is playing). */
  get moving(): boolean {
    return this.motionDef !== null;
  }

  /** Starts (or stops) the frame clock for the motion set: it runs only
   * while a drawn motion plays, the character runs and motion is
   * allowed. */
  private playMotion(): void {
    const def = MOTION_DEFS[this.el.dataset.motion ?? 'idle'];
    if (!def || !this.running || this.motion.reduced()) {
      this.endMotion();
      return;
    }
    this.motionDef = def;
    this.drawMotion();
  }

  private endMotion(): void {
    this.sched.clearTimeout(this.motionTimer);
    this.motionTimer = 0;
    this.motionDef = null;
    if (this.body.style.transform !== '') this.body.style.transform = '';
  }

  /** Draws the motion's pose now and arms the next frame (none once it
   * has ended). */
  private drawMotion(): void {
    const def = this.motionDef;
    if (!def) return;
    this.sched.clearTimeout(this.motionTimer);
    this.motionTimer = 0;
    const now = this.sched.now();
    const { pose, done } = motionPose(def, now - this.motionStart);
    const t = pose ? poseTransform(pose) : '';
    if (this.body.style.transform !== t) this.body.style.transform = t;
    if (done) {
      this.motionDef = null;
      return;
    }
    this.motionTimer = this.sched.setTimeout(() => this.motionTick(), MOTION_FRAME_MS);
  }

  /** A motion frame is due: drawn now, or with the mouth change due in a
   * moment (showMouth draws it then). */
  private motionTick(): void {
    this.motionTimer = 0;
    const ahead = this.mouthDue - this.sched.now();
    if (ahead >= 0 && ahead <= MOTION_MERGE_MS) return;
    this.drawMotion();
  }

  get emotion(): string {
    return this.el.dataset.emotion!;
  }

  setSpeaking(on: boolean): void {
    this.speaking = on;
    this.el.dataset.speaking = String(on);
    this.syncMouth();
  }

  /** Starts the idle blink schedule. */
  start(): void {
    this.running = true;
    this.scheduleBlink();
    this.syncMouth();
    this.playMotion();
  }

  stop(): void {
    this.running = false;
    this.sched.clearTimeout(this.blinkTimer);
    this.blinkTimer = 0;
    this.levels = [];
    this.syncMouth();
    this.endMotion();
  }

  /** Armed timers: while idle only the blink. */
  get pendingTimers(): number {
    return (this.blinkTimer ? 1 : 0) + (this.mouthTimer ? 1 : 0) + (this.lipTimer ? 1 : 0) + (this.motionTimer ? 1 : 0);
  }

  /** The fixed flap runs. */
  get mouthMoving(): boolean {
    return this.mouthTimer !== 0;
  }

  /** Lip-sync is following levels (a change is scheduled). */
  get lipSyncing(): boolean {
    return this.lipTimer !== 0;
  }

  private syncReduced(): void {
    this.el.dataset.reducedMotion = String(this.motion.reduced());
  }

  /** The mouth flaps only while speaking without sound, running and
   * motion is allowed; lip-sync takes over while levels are heard. */
  private syncMouth(): void {
    const want = this.flapWanted();
    if (want && !this.mouthTimer) {
      if (this.lipTimer) this.sched.clearTimeout(this.lipTimer);
      this.lipTimer = 0;
      this.mouthStep = 0;
      this.flap();
    } else if (!want && this.mouthTimer) {
      this.sched.clearTimeout(this.mouthTimer);
      this.mouthTimer = 0;
      this.mouthDue = Infinity;
      this.showMouth(0);
    }
    if (!want) this.lipTick();
  }

  private flapWanted(): boolean {
    return this.speaking && !this.voiced && this.running && !this.motion.reduced() && this.levels.length === 0;
  }

  /** Shows the lip-sync frame heard now (held MOUTH_HOLD_MS at least) and
   * arms one timer for the next change, if any. Nothing pending: the
   * mouth is closed and no timer runs. */
  private lipTick(): void {
    if (this.lipTimer) this.sched.clearTimeout(this.lipTimer);
    this.lipTimer = 0;
    if (this.mouthTimer) return; // the flap owns the mouth
    this.mouthDue = Infinity;
    this.lipTickNow();
    // A motion frame that waited for this mouth change is drawn now.
    if (this.motionDef && !this.motionTimer) this.drawMotion();
  }

  private armLip(ms: number): void {
    this.lipTimer = this.sched.setTimeout(() => this.lipTick(), ms);
    this.mouthDue = this.sched.now() + ms;
  }

  private lipTickNow(): void {
    const now = this.sched.now();
    // Forget what was heard already (keep the level covering now).
    let i = 0;
    while (i < this.levels.length && this.levels[i]!.t + this.levels[i]!.step <= now) i++;
    if (i > 0) this.levels = this.levels.slice(i);
    if (this.levels.length === 0 && this.flapWanted()) {
      this.syncMouth(); // speech without sound goes on: the flap again
      return;
    }
    const still = !this.running || this.motion.reduced();
    const heard = this.levels[0] && this.levels[0].t <= now ? this.levels[0].frame : 0;
    const shown = this.shownMouth;
    const held = now - this.lipChanged < MOUTH_HOLD_MS;
    let show = shown;
    if (still) show = 0;
    else if (heard !== shown && !held) show = heard;
    if (show !== shown) {
      this.showMouth(show);
      this.lipChanged = now;
    }
    if (still || this.levels.length === 0) {
      if (show !== 0 && !still) this.armLip(Math.max(1, this.lipChanged + MOUTH_HOLD_MS - now));
      return;
    }
    // The next time the heard frame differs from the one shown (not
    // before the hold ends); after the last level the mouth closes.
    const notBefore = Math.max(now + 1, this.lipChanged + MOUTH_HOLD_MS);
    let next = Infinity;
    for (const l of this.levels) {
      const end = l.t + l.step;
      if (end <= notBefore) continue;
      if (l.frame !== show) {
        next = Math.max(l.t, notBefore);
        break;
      }
    }
    if (next === Infinity) {
      const last = this.levels[this.levels.length - 1]!;
      if (show !== 0) next = Math.max(last.t + last.step, notBefore);
    }
    if (next !== Infinity) this.armLip(next - now);
  }

  private flap(): void {
    this.showMouth(MOUTH_CYCLE[this.mouthStep % MOUTH_CYCLE.length]!);
    this.mouthStep++;
    this.mouthTimer = this.sched.setTimeout(() => this.flap(), MOUTH_FRAME_MS);
    this.mouthDue = this.sched.now() + MOUTH_FRAME_MS;
    if (this.motionDef && !this.motionTimer) this.drawMotion();
  }

  /** The mouth frame showing: 0 closed (the face's own mouth), 1 half, 2 open. */
  private get shownMouth(): number {
    return Number(this.el.dataset.mouth ?? '0');
  }

  /** Shows mouth frame `frame` by an inline visibility on the three mouth
   * groups only (see the file comment). */
  private showMouth(frame: number): void {
    this.el.dataset.mouth = String(frame);
    this.mouths.forEach((g, i) => {
      const v = i === frame ? 'visible' : 'hidden';
      if (g.style.visibility !== v) g.style.visibility = v;
    });
    // A motion's frame rides along with this change (one composite).
    if (this.motionDef) this.drawMotion();
  }

  /** True while the eyes are shut for a blink. */
  get blinking(): boolean {
    return this.eyes.length > 0 && this.eyes[0]!.style.transform !== '';
  }

  /** Shuts or opens the eyes with an inline transform on the eye groups
   * only: no class changes anywhere, so WebKit restyles a handful of
   * elements instead of the whole figure. */
  private setEyesShut(shut: boolean): void {
    for (const e of this.eyes) e.style.transform = shut ? 'scaleY(0.12)' : '';
  }

  /** Something happened to her: not resting (a resting blink's long wait
   * is cut short). */
  private wake(): void {
    this.lastActive = this.sched.now();
    if (this.restingBlink && this.blinkTimer && this.running) {
      this.sched.clearTimeout(this.blinkTimer);
      this.scheduleBlink();
    }
  }

  /** She is resting (see RESTING_AFTER_MS). */
  get resting(): boolean {
    return this.sched.now() - this.lastActive >= RESTING_AFTER_MS;
  }

  private scheduleBlink(): void {
    this.restingBlink = this.resting;
    const wait = this.restingBlink
      ? REST_BLINK_MIN_MS + this.sched.random() * REST_BLINK_SPREAD_MS
      : BLINK_MIN_MS + this.sched.random() * BLINK_SPREAD_MS;
    this.blinkTimer = this.sched.setTimeout(() => {
      this.setEyesShut(true);
      this.blinkTimer = this.sched.setTimeout(() => {
        this.setEyesShut(false);
        this.scheduleBlink();
      }, BLINK_MS);
    }, wait);
  }
}
