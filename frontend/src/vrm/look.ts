// The VRM look: a VRM model (0.x or 1.0) drawn with three.js and
// @pixiv/three-vrm (MToon materials, spring bones, look-at) on a
// transparent canvas in the character's box. This module and three.js are
// their own chunk, loaded only when a character wears a VRM look
// (src/vrmhost.ts); the SVG look pays nothing for it.
//
// Cost is a feature: nothing renders while nothing moves. Frames are drawn
// on one timer, never a requestAnimationFrame loop: at MOTION_FPS while the
// body, the gaze, the face's easing or the spring bones settling move;
// otherwise single frames only when something changes — a blink is two
// frames (shut, open) as the SVG look's is, the mouth a frame per change of
// its closed / half / open frame (held 125 ms at least, as the SVG look's),
// breathing, when on, a frame every 1/BREATH_FPS s. Idle with breathing
// off, the only timer is the next blink's. A frame that changes only the
// face (the mouth, a blink, while the body, the gaze and the springs are
// still) updates the expressions alone: no pose, no spring bone step, no
// scene matrices; and while her emotion is settled each face (the mouth's
// shape and opening, the eyelids) is drawn with WebGL once and kept, so
// showing it again is a 2D canvas update over the hidden WebGL canvas
// (`showFace`). In WebKitGTK under software GL a WebGL frame's cost is
// presenting it, not its pixels: a scissored redraw of the face alone
// measured no cheaper (docs/looks.md, "What it costs").
//
// The window's input shape follows her silhouette: after a frame that
// changed her pose (at most every REGION_MS, and always once she settles)
// the drawn pixels' alpha is read back and cut into horizontal bands
// (`region()`), so clicks pass through around her.

import {
  AmbientLight, AnimationMixer, Box3, DirectionalLight, Euler, LoopOnce, MathUtils, Object3D, PerspectiveCamera, Quaternion,
  Scene, Vector3, WebGLRenderer, type AnimationAction, type AnimationClip,
} from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, VRMUtils, type VRM, type VRMHumanBoneName } from '@pixiv/three-vrm';
import { VRMAnimationLoaderPlugin, createVRMAnimationClip, type VRMAnimation } from '@pixiv/three-vrm-animation';
import type { Scheduler } from '../scheduler';
import { BONES, MOTIONS, REACTIONS, REST, addPoses, motionMoving, motionPose, type Bone, type Motion, type Pose } from './motions';
import { easeWeights, isInstant, resolveEmotion, targetWeights, type EmotionMap, type Weights } from './mixer';
import { MouthTrack, type VisemeWeights } from './viseme';
import { PatDetector, PokeDetector, type TouchKind, type TouchWhere } from './gesture';

export interface Rect { x: number; y: number; w: number; h: number }

/** What the core says about the look (look_art's vrm part). */
export interface VrmLookSpec {
  /** The model's URL on the core's view server (with the page's token). */
  model: string;
  /** Emotion → expression weights, resolved by the core. */
  emotions: EmotionMap;
  /** Motion id → clip name, for the look folder's .vrma clips. */
  motions: Record<string, string>;
  /** Clip name → its URL on the view server. */
  clips: Record<string, string>;
  /** Breathing: a frame every 1/BREATH_FPS s while idle, or none. */
  breathing: 'low' | 'off';
}

export interface VrmLookHost {
  sched: Scheduler;
  /** A pat or a poke (the page tells the core). */
  touched(kind: TouchKind, where: TouchWhere): void;
  /** The silhouette changed (the page reports the window's shape). */
  regionChanged(): void;
  /** Reduced motion: no body motion, no breathing (the face still changes). */
  reducedMotion(): boolean;
}

export const MOTION_FPS = 30;
/** Breathing's frame rate: its 4 s breath moves her chest by 1°, so 2
 * frames a second show it as well as more would (each frame is a WebGL
 * frame under software GL: docs/looks.md, "What it costs"). */
export const BREATH_FPS = 2;
export const REGION_MS = 250;
/** Spring bones keep swinging this long after the body stopped. */
export const SETTLE_S = 0.9;
/** A blink every 5–10 s, as the SVG look's: two frames (shut, open)
 * BLINK_MS apart, not an animation. */
export const BLINK_MIN_MS = 5000;
export const BLINK_SPREAD_MS = 5000;
export const BLINK_MS = 140;
/** Kept face frames at most (closed, two openings × five shapes, each
 * with the eyes open or shut: 22), each a drawing buffer's pixels. */
export const MAX_KEPT = 24;
/** Band height (px) of the silhouette's rectangles. */
export const BAND_PX = 8;

/** Touch reactions: the motion and the emotion it shows for a while. */
const REACTION_EMOTION: Record<TouchKind, string> = { pat: 'happy', poke: 'surprised' };

/** Why a VRM look could not be shown (the page falls back to SVG). */
export class VrmLookError extends Error {}

/** Multisampling: off. Under software GL (Mesa in WebKitGTK without a
 * GPU) it multiplies every frame's cost, and speaking draws a frame per
 * mouth change (docs/looks.md, "What it costs"). */
const ANTIALIAS = false;

/** Makes a WebGL renderer on `canvas`, or says why there is none. */
function makeRenderer(canvas: HTMLCanvasElement, preserve = false): WebGLRenderer {
  const probe = canvas.getContext('webgl2', { alpha: true, premultipliedAlpha: true, antialias: ANTIALIAS, preserveDrawingBuffer: preserve })
    ?? canvas.getContext('webgl', { alpha: true, premultipliedAlpha: true, antialias: ANTIALIAS, preserveDrawingBuffer: preserve });
  if (!probe) throw new VrmLookError('WebGL is not available in this window (no webgl2 or webgl context)');
  try {
    const r = new WebGLRenderer({ canvas, context: probe as WebGL2RenderingContext, alpha: true, antialias: ANTIALIAS, premultipliedAlpha: true, preserveDrawingBuffer: preserve, powerPreference: 'low-power' });
    r.setClearColor(0x000000, 0);
    return r;
  } catch (e) {
    throw new VrmLookError(`WebGL could not start: ${(e as Error).message}`);
  }
}

/** Parses VRM bytes into a VRM (0.x models are turned to face +Z). */
export async function parseVRM(bytes: ArrayBuffer): Promise<VRM> {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMLoaderPlugin(parser));
  let gltf;
  try {
    gltf = await loader.parseAsync(bytes, '');
  } catch (e) {
    throw new VrmLookError(`the model could not be read: ${(e as Error).message}`);
  }
  const vrm = gltf.userData.vrm as VRM | undefined;
  if (!vrm) throw new VrmLookError('the file has no VRM data');
  VRMUtils.removeUnnecessaryVertices(gltf.scene);
  VRMUtils.combineSkeletons(gltf.scene);
  VRMUtils.rotateVRM0(vrm);
  vrm.scene.traverse((o) => { o.frustumCulled = false; });
  return vrm;
}

async function parseClip(bytes: ArrayBuffer, vrm: VRM): Promise<AnimationClip> {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMAnimationLoaderPlugin(parser));
  const gltf = await loader.parseAsync(bytes, '');
  const anims = gltf.userData.vrmAnimations as VRMAnimation[] | undefined;
  if (!anims?.[0]) throw new Error('no VRM animation in the clip');
  return createVRMAnimationClip(anims[0], vrm);
}

async function fetchBytes(url: string): Promise<ArrayBuffer> {
  const res = await fetch(url, { credentials: 'omit', cache: 'no-store' });
  if (!res.ok) throw new VrmLookError(`the core did not give the model (HTTP ${res.status})`);
  return res.arrayBuffer();
}

/** A scene lit for MToon: a key light from the front above, some ambient. */
function litScene(): Scene {
  const scene = new Scene();
  const key = new DirectionalLight(0xffffff, Math.PI * 0.9);
  key.position.set(0.4, 1.2, 1.6);
  scene.add(key, new AmbientLight(0xffffff, 0.6));
  return scene;
}

/** Frames the whole figure: a camera that fits her height into the canvas. */
function frameCamera(vrm: VRM, aspect: number): PerspectiveCamera {
  const cam = new PerspectiveCamera(20, aspect, 0.05, 20);
  vrm.scene.updateMatrixWorld(true);
  const box = new Box3().setFromObject(vrm.scene);
  const h = Math.max(0.2, box.max.y - Math.min(0, box.min.y));
  const cy = Math.min(0, box.min.y) + h / 2;
  const fitH = h * 1.1;
  const dist = fitH / 2 / Math.tan(MathUtils.degToRad(cam.fov / 2));
  cam.position.set(0, cy, Math.max(dist, (box.max.z ?? 0) + 0.5));
  cam.lookAt(0, cy, 0);
  return cam;
}

export class VrmLook {
  readonly el: HTMLDivElement;
  readonly canvas: HTMLCanvasElement;
  private readonly renderer: WebGLRenderer;
  private readonly scene: Scene;
  private readonly camera: PerspectiveCamera;
  private readonly gazeTarget = new Object3D();
  private mixer: AnimationMixer | null = null;
  private clips = new Map<string, AnimationClip>();
  private action: AnimationAction | null = null;
  private restHips = new Vector3();
  private readonly v0: boolean;

  private emotion = 'neutral';
  private motionId = 'idle';
  private motion: Motion = MOTIONS.idle!;
  private motionT = 0;
  private reaction: { kind: TouchKind; t: number } | null = null;
  private weights: Weights = {};
  private speaking = false;
  private readonly mouthTrack = new MouthTrack();
  private mouth: VisemeWeights | null = null;
  private blinkOn = false; // the eyes are shut for a blink
  private blinkTimer = 0;
  private breathT = 0;
  private pointer: { x: number; y: number } | null = null;
  private gaze = { yaw: 0, pitch: 0 };
  private settleUntil = 0; // clock s until which springs still swing
  private clock = 0; // seconds of look time (advanced by frames)
  private last = 0; // epoch ms of the last frame
  private timer = 0;
  private regionAt = -Infinity;
  private regionDirty = true;
  private rects: Rect[] = [];
  private readonly pat = new PatDetector();
  private readonly poke = new PokeDetector();
  private disposed = false;
  /** Frames drawn (tests, the bench), and of those the face-only ones,
   * and of those the ones shown from the kept face frames (no WebGL). */
  frames = 0;
  faceFrames = 0;
  keptFrames = 0;
  /** The 2D canvas over the WebGL one that shows kept face frames. */
  private readonly face: HTMLCanvasElement;
  /** Face frames drawn since the body last changed, by their face: the
   * drawing buffer's pixels (straight alpha, top row first). */
  private kept = new Map<string, ImageData>();
  private keptEased = '';
  /** The test hook's fixed clock (see `pose`): no timers run while set. */
  private frozen = false;

  private constructor(
    private readonly vrm: VRM,
    private readonly spec: VrmLookSpec,
    private readonly host: VrmLookHost,
    canvas: HTMLCanvasElement,
    renderer: WebGLRenderer,
    width: number,
    height: number,
  ) {
    this.canvas = canvas;
    this.renderer = renderer;
    this.el = document.createElement('div');
    this.el.className = 'vrm-look';
    // Tests and the bench reach the look through its element.
    Object.defineProperty(this.el, 'yuiLook', { value: this });
    canvas.classList.add('vrm-gl');
    this.face = document.createElement('canvas');
    this.face.className = 'vrm-face';
    this.face.width = canvas.width;
    this.face.height = canvas.height;
    // Over the WebGL canvas, the same size; shown only with a kept face.
    this.face.style.cssText = 'position:absolute;left:0;top:0;width:100%;height:100%;pointer-events:none;display:none';
    this.el.style.position = 'relative';
    this.el.append(canvas, this.face);
    this.v0 = vrm.meta?.metaVersion === '0';
    this.scene = litScene();
    this.scene.add(vrm.scene);
    this.applyPose(REST);
    vrm.update(0);
    this.camera = frameCamera(vrm, width / height);
    this.camera.add(this.gazeTarget);
    this.scene.add(this.camera);
    this.gazeTarget.position.set(0, 0, 0);
    if (vrm.lookAt) {
      vrm.lookAt.target = this.gazeTarget;
      vrm.lookAt.autoUpdate = true;
    }
    const hips = vrm.humanoid.getNormalizedBoneNode('hips');
    if (hips) this.restHips.copy(hips.position);
    this.wirePointer();
  }

  /** Loads the model and clips and makes the look, or throws a
   * VrmLookError saying why it cannot be shown. */
  static async create(spec: VrmLookSpec, host: VrmLookHost, width = 180, height = 216): Promise<VrmLook> {
    const canvas = document.createElement('canvas');
    const dpr = Math.min(2, window.devicePixelRatio || 1);
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    const renderer = makeRenderer(canvas);
    renderer.setPixelRatio(dpr);
    renderer.setSize(width, height, false);
    let vrm: VRM;
    try {
      vrm = await parseVRM(await fetchBytes(spec.model));
    } catch (e) {
      renderer.dispose();
      throw e instanceof VrmLookError ? e : new VrmLookError((e as Error).message);
    }
    const look = new VrmLook(vrm, spec, host, canvas, renderer, width, height);
    await look.loadClips();
    look.scheduleBlink();
    look.wake();
    return look;
  }

  private async loadClips(): Promise<void> {
    for (const [name, url] of Object.entries(this.spec.clips)) {
      try {
        this.clips.set(name, await parseClip(await fetchBytes(url), this.vrm));
      } catch (e) {
        console.warn(`yui: clip ${name} not loaded:`, e);
      }
    }
    if (this.clips.size > 0) this.mixer = new AnimationMixer(this.vrm.scene);
  }

  /** The motion ids the look draws (procedural ones and clips). */
  get motionIds(): string[] {
    return [...Object.keys(MOTIONS), ...Object.keys(this.spec.motions)];
  }

  // ---- what the page applies ----

  set(s: { emotion: string; motion: string; speaking: boolean; voiced?: boolean }): void {
    const e = resolveEmotion(this.spec.emotions, s.emotion);
    if (e !== this.emotion) this.emotion = e;
    this.setMotion(s.motion);
    if (this.host.reducedMotion() !== this.reducedSeen) {
      this.reducedSeen = this.host.reducedMotion();
      this.posed = false;
    }
    if (this.speaking !== s.speaking) {
      this.speaking = s.speaking;
      if (!s.speaking) this.mouthTrack.clear();
    }
    this.wake();
  }

  setMotion(id: string): void {
    const known = Object.prototype.hasOwnProperty.call(MOTIONS, id) || Object.prototype.hasOwnProperty.call(this.spec.motions, id);
    const next = known ? id : 'idle';
    if (next === this.motionId) return;
    this.motionId = next;
    this.motionT = 0;
    this.posed = false;
    this.action?.fadeOut(0.25);
    this.action = null;
    const clip = this.clips.get(this.spec.motions[next] ?? '');
    if (clip && this.mixer) {
      this.motion = MOTIONS.idle!;
      this.action = this.mixer.clipAction(clip).reset().setLoop(LoopOnce, 1).fadeIn(0.25).play();
      this.action.clampWhenFinished = false;
    } else {
      this.motion = MOTIONS[next] ?? MOTIONS.idle!;
    }
    this.wake();
  }

  /** The voice's levels (0–100) heard from `at` (epoch ms), one per
   * `stepMs`; tones when the core sends them. None: the sound stopped. */
  setLevels(at: number, stepMs: number, levels: readonly number[], tones?: readonly number[] | null): void {
    this.mouthTrack.push(at, stepMs, levels, tones);
    this.wake();
  }

  /** Where the pointer is, in the page's pixels (it may be outside the
   * window), or null when it is not near her. */
  setPointer(p: { x: number; y: number } | null): void {
    this.pointer = p;
    this.posed = false;
    this.wake();
  }

  /** Plays a touch reaction (an expression and a small motion). */
  react(kind: TouchKind): void {
    this.reaction = { kind, t: 0 };
    this.posed = false;
    this.wake();
  }

  /** The silhouette as bands in page pixels (empty before the first frame). */
  region(): Rect[] {
    const box = this.canvas.getBoundingClientRect();
    const sx = box.width / this.canvas.width, sy = box.height / this.canvas.height;
    return this.rects.map((r) => ({
      x: Math.floor(box.left + r.x * sx), y: Math.floor(box.top + r.y * sy), w: Math.ceil(r.w * sx), h: Math.ceil(r.h * sy),
    }));
  }

  /** Whether a frame is scheduled (anything moving). */
  get animating(): boolean {
    return this.timer !== 0;
  }

  /** The expression weights shown now (tests). */
  get shownWeights(): Weights {
    return { ...this.weights };
  }

  /** The head's turn towards the pointer, in radians (tests). */
  get headTurn(): { yaw: number; pitch: number } {
    return { ...this.gaze };
  }

  get currentMotion(): string {
    return this.motionId;
  }

  /** The touch reaction playing ('' none). */
  get reacting(): string {
    return this.reaction?.kind ?? '';
  }

  /** The motion's length in seconds, and whether it loops or holds. */
  motionInfo(id: string): { duration: number; loop: boolean; hold: boolean; clip: boolean } {
    const clip = this.clips.get(this.spec.motions[id] ?? '');
    if (clip) return { duration: clip.duration, loop: false, hold: false, clip: true };
    const m = MOTIONS[id] ?? MOTIONS.idle!;
    return { duration: m.duration, loop: !!m.loop, hold: !!m.hold, clip: false };
  }

  /**
   * Test and thumbnail hook: stops the clock and draws the pose at `t`
   * seconds into the current motion with its face fully shown, springs
   * reset — the same pixels on every run. Undone by `unfreeze`.
   */
  pose(t: number): void {
    this.frozen = true;
    this.stopTimer();
    this.dropKept();
    this.motionT = t;
    this.clock = 10;
    this.blinkOn = false;
    this.blinkShutAt = null;
    const target = targetWeights(this.spec.emotions, { emotion: this.emotion, blink: 0, mouth: this.mouth }, (n) => this.has(n));
    this.weights = { ...target };
    this.vrm.springBoneManager?.reset();
    this.drawFrame(0);
    this.readRegion();
  }

  unfreeze(): void {
    this.frozen = false;
    this.posed = false;
    this.last = 0;
    this.wake();
  }

  dispose(): void {
    this.disposed = true;
    this.stopTimer();
    this.host.sched.clearTimeout(this.blinkTimer);
    this.blinkTimer = 0;
    VRMUtils.deepDispose(this.vrm.scene);
    this.renderer.dispose();
    this.renderer.forceContextLoss();
    this.el.remove();
  }

  // ---- frames ----

  private has(name: string): boolean {
    return !!this.vrm.expressionManager?.getExpression(name);
  }

  private stopTimer(): void {
    if (this.timer) this.host.sched.clearTimeout(this.timer);
    this.timer = 0;
  }

  /** Schedules the next frame at the rate needed now, if any. */
  private wake(): void {
    if (this.disposed || this.frozen) return;
    const now = this.host.sched.now();
    const at = this.nextFrameAt(now);
    if (at === null) {
      this.stopTimer();
      return;
    }
    if (this.timer && at >= this.timerAt) return;
    this.stopTimer();
    this.timerAt = at;
    this.timer = this.host.sched.setTimeout(() => this.tick(), Math.max(0, at - now));
  }

  private timerAt = 0;

  /** When the next frame is due (epoch ms), or null: nothing moves. The
   * body, the gaze, springs and face changes run at MOTION_FPS; the mouth
   * alone draws a frame only when its frame changes; a blink is its two
   * frames; breathing a frame each 1/BREATH_FPS s. */
  private nextFrameAt(now: number): number | null {
    const after = (fps: number) => (this.last ? Math.max(now, this.last + 1000 / fps) : now);
    if (this.wantedFPS() === MOTION_FPS) return after(MOTION_FPS);
    const times: number[] = [];
    if (this.dirtyFrame) times.push(now);
    if (this.blinkShutAt !== null) times.push(this.blinkShutAt);
    const m = this.mouthTrack.next(now);
    if (m !== null) times.push(m);
    if (this.mouth !== null && this.mouthTrack.pending === 0) times.push(now); // close it
    if (this.spec.breathing === 'low' && !this.host.reducedMotion()) times.push(after(BREATH_FPS));
    return times.length ? Math.min(...times) : null;
  }

  /** A change that needs one frame (a blink's, the mouth's). */
  private dirtyFrame = false;
  /** When the shut eyes open again (a blink's second frame). */
  private blinkShutAt: number | null = null;

  private tick(): void {
    this.timer = 0;
    if (this.disposed || this.frozen) return;
    const now = this.host.sched.now();
    this.dirtyFrame = false;
    if (this.blinkShutAt !== null && now >= this.blinkShutAt) {
      this.blinkShutAt = null;
      this.blinkOn = false;
    }
    const dt = this.last ? Math.min(0.1, (now - this.last) / 1000) : 0;
    this.last = now;
    this.drawFrame(dt, this.posed && this.bodyStill());
    const dirty = this.regionDirty;
    if (dirty && (now - this.regionAt >= REGION_MS || this.wantedFPS() === 0)) this.readRegion();
    this.wake();
  }

  /** MOTION_FPS while the body, the gaze, the springs or the face move; 0
   * otherwise (the mouth, a blink, breathing draw single frames). */
  private wantedFPS(): number {
    const reduced = this.host.reducedMotion();
    const body = !reduced && (motionMoving(this.motion, this.motionT) || this.action !== null || this.reaction !== null);
    const gaze = this.gazeMoving();
    const springs = this.clock < this.settleUntil;
    return body || gaze || springs || this.faceMoving ? MOTION_FPS : 0;
  }

  private faceMoving = false;
  /** A full frame has posed her since the body last changed. */
  private posed = false;
  private reducedSeen = false;

  /** Nothing but the face can change this frame: no motion, clip or
   * reaction, breathing off, the gaze and the springs settled. */
  private bodyStill(): boolean {
    const reduced = this.host.reducedMotion();
    const body = !reduced && (motionMoving(this.motion, this.motionT) || this.action !== null || this.reaction !== null);
    const breathing = !reduced && this.spec.breathing === 'low';
    return !body && !breathing && !this.gazeMoving() && this.clock >= this.settleUntil;
  }

  private gazeWanted(): { yaw: number; pitch: number } {
    if (!this.pointer) return { yaw: 0, pitch: 0 };
    const head = this.vrm.humanoid.getNormalizedBoneNode('head');
    if (!head) return { yaw: 0, pitch: 0 };
    const box = this.canvas.getBoundingClientRect();
    if (box.width === 0) return { yaw: 0, pitch: 0 };
    const hp = new Vector3();
    head.getWorldPosition(hp);
    hp.y += 0.08;
    const ndc = hp.clone().project(this.camera);
    const hx = box.left + ((ndc.x + 1) / 2) * box.width;
    const hy = box.top + ((1 - ndc.y) / 2) * box.height;
    // Pixels to metres at her depth, and a point half a metre in front.
    const mPerPx = (2 * Math.tan(MathUtils.degToRad(this.camera.fov / 2)) * this.camera.position.distanceTo(hp)) / box.height;
    const dx = (this.pointer.x - hx) * mPerPx;
    const dy = -(this.pointer.y - hy) * mPerPx;
    const dz = 0.6;
    return {
      yaw: MathUtils.clamp(Math.atan2(dx, dz), -0.7, 0.7),
      pitch: MathUtils.clamp(-Math.atan2(dy, dz), -0.4, 0.4),
    };
  }

  private gazeMoving(): boolean {
    const w = this.gazeWanted();
    return Math.abs(w.yaw - this.gaze.yaw) > 0.003 || Math.abs(w.pitch - this.gaze.pitch) > 0.003;
  }

  /** Advances every clock by dt seconds and draws; `faceOnly`: only the
   * expressions changed (the body is as the last frame left it). */
  private drawFrame(dt: number, faceOnly = false): void {
    const reduced = this.host.reducedMotion();
    this.clock += dt;
    if (faceOnly) {
      this.motionT += dt;
      this.breathT += dt;
      this.drawFace(dt);
      this.frames++;
      this.faceFrames++;
      this.showFace();
      return;
    }
    this.posed = true;
    this.dropKept();
    const before = { motionId: this.motionId, reaction: this.reaction?.kind };
    this.motionT += dt;
    if (this.reaction) {
      this.reaction.t += dt;
      if (this.reaction.t >= REACTIONS[this.reaction.kind]!.duration) this.reaction = null;
    }
    if (this.action && !this.frozen && !this.action.isRunning()) this.action = null;
    this.breathT += dt;

    // The body: rest, the motion (unless a clip plays it), a reaction,
    // breathing; then a clip over that; then the gaze on top.
    const parts: Pose[] = [REST];
    if (!reduced && !this.action) parts.push(motionPose(this.motion, this.motionT));
    if (!reduced && this.reaction) parts.push(motionPose(REACTIONS[this.reaction.kind]!, this.reaction.t));
    if (!reduced && this.spec.breathing === 'low') {
      const b = Math.sin((2 * Math.PI * this.breathT) / 4);
      parts.push({ rot: { chest: [0.018 * b, 0, 0], leftUpperArm: [0, 0, -0.02 * b], rightUpperArm: [0, 0, 0.02 * b] } });
    }
    this.applyPose(addPoses(...parts));
    if (this.action) {
      if (this.frozen) {
        this.action.stopFading().setEffectiveWeight(1);
        this.action.time = this.motionT;
      }
      this.mixer?.update(this.frozen ? 0 : dt);
    }
    // The gaze: the head and neck turn towards the pointer, easing.
    const want = this.gazeWanted();
    const k = dt === 0 && this.frozen ? 1 : 1 - Math.pow(0.82, dt * 60);
    this.gaze.yaw += (want.yaw - this.gaze.yaw) * k;
    this.gaze.pitch += (want.pitch - this.gaze.pitch) * k;
    this.applyPose({ rot: { head: [this.gaze.pitch * 0.6, this.gaze.yaw * 0.6, 0], neck: [this.gaze.pitch * 0.3, this.gaze.yaw * 0.3, 0] } }, true);
    const moving = !reduced && (motionMoving(this.motion, this.motionT) || this.reaction !== null || this.action !== null);
    if (moving || Math.abs(want.yaw - this.gaze.yaw) > 0.01) this.settleUntil = this.clock + SETTLE_S;
    if (moving || this.reaction || before.motionId !== this.motionId) this.regionDirty = true;

    this.drawFace(dt);
    this.vrm.update(dt);
    this.renderer.render(this.scene, this.camera);
    this.frames++;
  }

  /**
   * Shows a face-only frame. While her emotion is settled, each face (the
   * mouth's shape and opening, the eyelids) is drawn with WebGL once and
   * kept; showing it again puts the kept pixels on the 2D canvas over the
   * WebGL one, hidden meanwhile — in WebKitGTK under software GL a WebGL
   * frame's cost is presenting it, which a 2D canvas update does not pay
   * (docs/looks.md, "What it costs"). While the emotion eases, every frame
   * is drawn.
   */
  private showFace(): void {
    const eased = this.easedKey();
    const settled = !this.faceMoving && eased === this.keptEased;
    if (!settled) {
      this.dropKept();
      this.keptEased = eased;
    }
    const key = this.faceKey();
    const kept = settled ? this.kept.get(key) : undefined;
    if (kept) {
      this.face.getContext('2d')?.putImageData(kept, 0, 0);
      this.keptFrames++;
    } else {
      this.vrm.expressionManager?.update();
      this.scene.matrixWorldAutoUpdate = false;
      this.renderer.render(this.scene, this.camera);
      this.scene.matrixWorldAutoUpdate = true;
      if (!settled || this.faceMoving) {
        this.showGL();
        return;
      }
      const img = this.readFrame();
      if (this.kept.size >= MAX_KEPT) this.kept.clear();
      this.kept.set(key, img);
      this.face.getContext('2d')?.putImageData(img, 0, 0);
    }
    this.face.style.display = 'block';
    this.canvas.style.visibility = 'hidden';
  }

  /** The WebGL canvas shown again (its last frame is the current one). */
  private showGL(): void {
    this.canvas.style.visibility = '';
    this.face.style.display = 'none';
  }

  /** Forgets the kept faces (the body, the gaze or the emotion changed). */
  private dropKept(): void {
    this.kept.clear();
    this.showGL();
  }

  private faceKey(): string {
    let k = '';
    for (const [n, w] of Object.entries(this.weights)) if (isInstant(n)) k += `${n}:${w.toFixed(3)};`;
    return k;
  }

  private easedKey(): string {
    let k = this.emotion;
    for (const [n, w] of Object.entries(this.weights)) if (!isInstant(n)) k += `;${n}:${w.toFixed(3)}`;
    return k;
  }

  /** The drawing buffer as an ImageData (read right after a render). */
  private readFrame(): ImageData {
    const gl = this.renderer.getContext();
    const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    const px = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    const img = new ImageData(w, h);
    const out = img.data;
    for (let y = 0; y < h; y++) {
      const src = (h - 1 - y) * w * 4, dst = y * w * 4; // GL rows go bottom-up
      for (let x = 0; x < w * 4; x += 4) {
        const a = px[src + x + 3]!;
        if (a === 0) continue;
        // Premultiplied in the buffer, straight in an ImageData.
        out[dst + x] = Math.min(255, Math.round((px[src + x]! * 255) / a));
        out[dst + x + 1] = Math.min(255, Math.round((px[src + x + 1]! * 255) / a));
        out[dst + x + 2] = Math.min(255, Math.round((px[src + x + 2]! * 255) / a));
        out[dst + x + 3] = a;
      }
    }
    return img;
  }

  /** Sets the expression weights for now (easing the emotion's). */
  private drawFace(dt: number): void {
    this.mouth = this.mouthNow();
    const blink = this.blinkOn ? 1 : 0;
    const r = this.reaction;
    const strength = r ? Math.min(1, r.t / 0.2, (REACTIONS[r.kind]!.duration - r.t) / 0.3) : 0;
    const target = targetWeights(this.spec.emotions, {
      emotion: this.emotion, blink, mouth: this.mouth,
      reaction: r ? { emotion: REACTION_EMOTION[r.kind], strength: Math.max(0, strength) } : undefined,
    }, (n) => this.has(n));
    this.faceMoving = this.frozen ? false : easeWeights(this.weights, target, dt);
    const em = this.vrm.expressionManager;
    if (em) {
      for (const ex of em.expressions) em.setValue(ex.expressionName, this.weights[ex.expressionName] ?? 0);
    }
  }

  /** The visemes for now (null: closed, nothing pending). */
  private mouthNow(): VisemeWeights | null {
    if (this.host.reducedMotion()) return null;
    return this.mouthTrack.show(this.host.sched.now());
  }

  /** Sets every normalized bone from rest + the pose (additive: on top of
   * what a clip set). */
  private applyPose(p: Pose, additive = false): void {
    const q = new Quaternion();
    const e = new Vector3();
    // VRM 0.x normalized bones keep 0.x's axes (she faces -Z in them):
    // pitch and roll turn the other way.
    const f = this.v0 ? -1 : 1;
    for (const b of BONES) {
      const node = this.vrm.humanoid.getNormalizedBoneNode(b as VRMHumanBoneName);
      if (!node) continue;
      const r = p.rot[b as Bone];
      if (additive) {
        if (!r) continue;
        e.set(f * r[0], r[1], f * r[2]);
        node.quaternion.multiply(q.setFromEuler(eulerOf(e)));
      } else if (r) {
        node.quaternion.setFromEuler(eulerOf(e.set(f * r[0], r[1], f * r[2])));
      } else {
        node.quaternion.identity();
      }
    }
    const hips = this.vrm.humanoid.getNormalizedBoneNode('hips');
    if (hips && !additive) hips.position.set(this.restHips.x, this.restHips.y + (p.lift ?? 0), this.restHips.z);
  }

  /** Reads the drawn alpha back and cuts it into bands (the input shape). */
  private readRegion(): void {
    const gl = this.renderer.getContext();
    const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight;
    const px = new Uint8Array(w * h * 4);
    gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
    const rects: Rect[] = [];
    const band = Math.max(1, Math.round(BAND_PX * (w / (this.canvas.clientWidth || w))));
    for (let top = 0; top < h; top += band) {
      let lo = w, hi = -1;
      for (let y = top; y < Math.min(h, top + band); y++) {
        const row = (h - 1 - y) * w * 4; // GL rows go bottom-up
        for (let x = 0; x < w; x++) {
          if (px[row + x * 4 + 3]! > 24) {
            if (x < lo) lo = x;
            if (x > hi) hi = x;
          }
        }
      }
      if (hi >= lo) rects.push({ x: lo, y: top, w: hi - lo + 1, h: Math.min(band, h - top) });
    }
    this.rects = rects;
    this.regionAt = this.host.sched.now();
    this.regionDirty = false;
    this.host.regionChanged();
  }

  private scheduleBlink(): void {
    if (this.disposed) return;
    const wait = BLINK_MIN_MS + this.host.sched.random() * BLINK_SPREAD_MS;
    this.blinkTimer = this.host.sched.setTimeout(() => {
      if (!this.frozen && !this.host.reducedMotion() && this.has('blink')) {
        this.blinkOn = true;
        this.blinkShutAt = this.host.sched.now() + BLINK_MS;
        this.dirtyFrame = true;
        this.wake();
      }
      this.scheduleBlink();
    }, wait);
  }

  // ---- touch ----

  /** Where on her a page point is: her head, her body, or neither. */
  private partAt(x: number, y: number): TouchWhere | null {
    const head = this.vrm.humanoid.getNormalizedBoneNode('head');
    const box = this.canvas.getBoundingClientRect();
    if (!head || box.width === 0) return null;
    const hp = new Vector3();
    head.getWorldPosition(hp);
    const top = hp.clone().add(new Vector3(0, 0.2, 0)).project(this.camera);
    const mid = hp.clone().add(new Vector3(0, 0.09, 0)).project(this.camera);
    const cx = box.left + ((mid.x + 1) / 2) * box.width;
    const cy = box.top + ((1 - mid.y) / 2) * box.height;
    const r = Math.abs(((top.y - mid.y) / 2) * box.height) * 1.1;
    if (Math.hypot(x - cx, y - cy) <= r) return 'head';
    // Inside the silhouette's band at y: her body.
    for (const b of this.region()) if (y >= b.y && y < b.y + b.h && x >= b.x && x < b.x + b.w) return 'body';
    return null;
  }

  private wirePointer(): void {
    // On the element: the WebGL canvas is hidden while a kept face shows.
    const c = this.el;
    c.addEventListener('pointermove', (e) => {
      this.setPointer({ x: e.clientX, y: e.clientY });
      if (e.buttons !== 0) return;
      if (this.partAt(e.clientX, e.clientY) === 'head') {
        if (this.pat.move(e.clientX, this.host.sched.now())) {
          this.react('pat');
          this.host.touched('pat', 'head');
        }
      } else {
        this.pat.leave();
      }
    });
    c.addEventListener('pointerleave', () => this.pat.leave());
  }

  /** A click on her (the page forwards its character's clicks: a press
   * on her captures the pointer on the character's element, so the click
   * lands there). Two in a row are a poke. */
  click(x: number, y: number): void {
    const where = this.partAt(x, y);
    if (!where) return;
    if (this.poke.click(x, y, this.host.sched.now())) {
      this.react('poke');
      this.host.touched('poke', where);
    }
  }
}

const scratchEuler = new Euler();
/** The Euler of a pose's angles: yaw, then pitch, then roll. */
function eulerOf(v: Vector3): Euler {
  return scratchEuler.set(v.x, v.y, v.z, 'YXZ');
}

/** Renders a thumbnail (PNG data URL) of a model: her neutral face, at rest. */
export async function renderThumbnail(bytes: ArrayBuffer, size = 128): Promise<string> {
  const canvas = document.createElement('canvas');
  canvas.width = size;
  canvas.height = size;
  const renderer = makeRenderer(canvas, true);
  try {
    const vrm = await parseVRM(bytes);
    const scene = litScene();
    scene.add(vrm.scene);
    const f = vrm.meta?.metaVersion === '0' ? -1 : 1;
    for (const [b, r] of Object.entries(REST.rot)) {
      vrm.humanoid.getNormalizedBoneNode(b as VRMHumanBoneName)?.quaternion.setFromEuler(new Euler(f * r[0], r[1], f * r[2], 'YXZ'));
    }
    vrm.update(0);
    // Head and shoulders: frame from the chest up.
    const head = new Vector3();
    vrm.humanoid.getNormalizedBoneNode('head')?.getWorldPosition(head);
    const cam = new PerspectiveCamera(20, 1, 0.05, 20);
    cam.position.set(0, head.y + 0.02, 1.5);
    cam.lookAt(0, head.y + 0.02, 0);
    renderer.render(scene, cam);
    VRMUtils.deepDispose(vrm.scene);
    return canvas.toDataURL('image/png');
  } finally {
    renderer.dispose();
    renderer.forceContextLoss();
  }
}
