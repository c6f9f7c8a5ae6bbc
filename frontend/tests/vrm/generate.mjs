#!/usr/bin/env node
// Generates the VRM test models the tests load (no model is downloaded):
//
//   yui-test-1.0.vrm  VRM 1.0 (VRMC_vrm): a humanoid skeleton with rigid
//                     meshes on its bones (head, hair, eyes, body, arms,
//                     legs), a face mesh whose morph targets are the preset
//                     expressions (happy angry sad relaxed surprised, aa ih
//                     ou ee oh, blink blinkLeft blinkRight) and one custom
//                     expression (`thinking`), a bone look-at, MToon
//                     materials (VRMC_materials_mtoon) and a spring-bone
//                     ponytail (VRMC_springBone).
//   yui-test-0.x.vrm  the same figure as VRM 0.x (the `VRM` extension:
//                     humanBones array, blendShapeMaster, secondaryAnimation,
//                     materialProperties with VRM/MToon), facing -Z as 0.x
//                     models do.
//   cheer.vrma        a VRM animation (VRMC_vrm_animation): both arms up and
//                     down again in one second.
//
// Run: node tests/vrm/generate.mjs [outdir]  (default: this folder). The
// output is deterministic: the same bytes every run, so the checked-in files
// can be compared with a fresh run (src/vrm/generate.test.ts does).

import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// ---- a small glTF builder ----

class GLTF {
  constructor() {
    this.json = {
      asset: { version: '2.0', generator: 'yui tests/vrm/generate.mjs' },
      scene: 0, scenes: [{ nodes: [] }], nodes: [], meshes: [], materials: [],
      accessors: [], bufferViews: [], buffers: [{ byteLength: 0 }],
    };
    this.chunks = [];
    this.length = 0;
  }

  /** Appends bytes to the one buffer (4-byte aligned), returns a bufferView. */
  view(bytes, target) {
    const pad = (4 - (this.length % 4)) % 4;
    if (pad) { this.chunks.push(new Uint8Array(pad)); this.length += pad; }
    const v = { buffer: 0, byteOffset: this.length, byteLength: bytes.byteLength };
    if (target) v.target = target;
    this.chunks.push(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    this.length += bytes.byteLength;
    this.json.bufferViews.push(v);
    return this.json.bufferViews.length - 1;
  }

  /** A float VEC3 accessor (with min/max, as glTF requires for POSITION). */
  vec3(values, target = 34962) {
    const arr = new Float32Array(values);
    const min = [Infinity, Infinity, Infinity];
    const max = [-Infinity, -Infinity, -Infinity];
    for (let i = 0; i < arr.length; i += 3) {
      for (let k = 0; k < 3; k++) { min[k] = Math.min(min[k], arr[i + k]); max[k] = Math.max(max[k], arr[i + k]); }
    }
    const bufferView = this.view(arr, target);
    this.json.accessors.push({ bufferView, componentType: 5126, count: arr.length / 3, type: 'VEC3', min: min.map(r), max: max.map(r) });
    return this.json.accessors.length - 1;
  }

  scalarF(values) {
    const arr = new Float32Array(values);
    const bufferView = this.view(arr);
    this.json.accessors.push({ bufferView, componentType: 5126, count: arr.length, type: 'SCALAR', min: [Math.min(...values)], max: [Math.max(...values)] });
    return this.json.accessors.length - 1;
  }

  vec4(values) {
    const arr = new Float32Array(values);
    const bufferView = this.view(arr);
    this.json.accessors.push({ bufferView, componentType: 5126, count: arr.length / 4, type: 'VEC4' });
    return this.json.accessors.length - 1;
  }

  indices(values) {
    const arr = new Uint16Array(values);
    const bufferView = this.view(arr, 34963);
    this.json.accessors.push({ bufferView, componentType: 5123, count: arr.length, type: 'SCALAR' });
    return this.json.accessors.length - 1;
  }

  node(n, parent) {
    this.json.nodes.push(n);
    const i = this.json.nodes.length - 1;
    if (parent === undefined) this.json.scenes[0].nodes.push(i);
    else (this.json.nodes[parent].children ??= []).push(i);
    return i;
  }

  /** The GLB bytes: header, JSON chunk (space-padded), BIN chunk (zero-padded). */
  glb() {
    const binLen = this.length + ((4 - (this.length % 4)) % 4);
    const bin = new Uint8Array(binLen);
    let o = 0;
    for (const c of this.chunks) { bin.set(c, o); o += c.byteLength; }
    this.json.buffers[0].byteLength = binLen;
    let text = JSON.stringify(this.json);
    while (Buffer.byteLength(text) % 4) text += ' ';
    const jsonBytes = Buffer.from(text);
    const total = 12 + 8 + jsonBytes.length + 8 + binLen;
    const out = Buffer.alloc(total);
    out.writeUInt32LE(0x46546c67, 0); // glTF
    out.writeUInt32LE(2, 4);
    out.writeUInt32LE(total, 8);
    out.writeUInt32LE(jsonBytes.length, 12);
    out.writeUInt32LE(0x4e4f534a, 16); // JSON
    jsonBytes.copy(out, 20);
    const b = 20 + jsonBytes.length;
    out.writeUInt32LE(binLen, b);
    out.writeUInt32LE(0x004e4942, b + 4); // BIN
    Buffer.from(bin.buffer, bin.byteOffset, bin.byteLength).copy(out, b + 8);
    return out;
  }
}

const r = (v) => Math.round(v * 1e6) / 1e6;

// ---- geometry (positions, normals, indices) ----

/** A UV sphere (or a cap of one: latitudes 0..maxTheta). */
function sphere(cx, cy, cz, rx, ry, rz, { seg = 16, rings = 10, maxTheta = Math.PI } = {}) {
  const pos = [], nor = [], idx = [];
  for (let i = 0; i <= rings; i++) {
    const th = (maxTheta * i) / rings;
    for (let j = 0; j <= seg; j++) {
      const ph = (2 * Math.PI * j) / seg;
      const nx = Math.sin(th) * Math.sin(ph), ny = Math.cos(th), nz = Math.sin(th) * Math.cos(ph);
      pos.push(cx + rx * nx, cy + ry * ny, cz + rz * nz);
      const l = Math.hypot(nx / rx, ny / ry, nz / rz) || 1;
      nor.push(nx / rx / l, ny / ry / l, nz / rz / l);
    }
  }
  for (let i = 0; i < rings; i++) {
    for (let j = 0; j < seg; j++) {
      const a = i * (seg + 1) + j, b = a + seg + 1;
      idx.push(a, b, a + 1, a + 1, b, b + 1);
    }
  }
  return { pos, nor, idx };
}

/** An axis-aligned box from (x0,y0,z0) to (x1,y1,z1). */
function box(x0, y0, z0, x1, y1, z1) {
  const pos = [], nor = [], idx = [];
  const faces = [
    [[1, 0, 0], [[x1, y0, z0], [x1, y1, z0], [x1, y1, z1], [x1, y0, z1]]],
    [[-1, 0, 0], [[x0, y0, z1], [x0, y1, z1], [x0, y1, z0], [x0, y0, z0]]],
    [[0, 1, 0], [[x0, y1, z0], [x0, y1, z1], [x1, y1, z1], [x1, y1, z0]]],
    [[0, -1, 0], [[x0, y0, z1], [x0, y0, z0], [x1, y0, z0], [x1, y0, z1]]],
    [[0, 0, 1], [[x0, y0, z1], [x1, y0, z1], [x1, y1, z1], [x0, y1, z1]]],
    [[0, 0, -1], [[x1, y0, z0], [x0, y0, z0], [x0, y1, z0], [x1, y1, z0]]],
  ];
  for (const [n, quad] of faces) {
    const base = pos.length / 3;
    for (const p of quad) { pos.push(...p); nor.push(...n); }
    idx.push(base, base + 1, base + 2, base, base + 2, base + 3);
  }
  return { pos, nor, idx };
}

// ---- the figure ----

// Colours (linear-ish sRGB factors for MToon).
const COLORS = {
  skin: [1.0, 0.8, 0.68], skinShade: [0.93, 0.62, 0.55],
  hair: [0.2, 0.12, 0.3], hairShade: [0.12, 0.06, 0.2],
  outfit: [0.2, 0.55, 0.85], outfitShade: [0.1, 0.32, 0.6],
  legs: [0.18, 0.18, 0.28], legsShade: [0.1, 0.1, 0.18],
  eye: [0.08, 0.06, 0.12], eyeShade: [0.05, 0.03, 0.08],
  brow: [0.16, 0.1, 0.22], browShade: [0.1, 0.06, 0.15],
  mouth: [0.6, 0.16, 0.25], mouthShade: [0.45, 0.1, 0.18],
  blush: [1.0, 0.45, 0.55], blushShade: [0.9, 0.35, 0.45],
};

// The head sphere (in the head bone's space).
const HEAD = { cy: 0.11, r: 0.13 };
/** z on the head's front surface at (x, y) in head space, plus lift. */
const onFace = (x, y, lift = 0.004) => Math.sqrt(Math.max(0, HEAD.r ** 2 - x ** 2 - (y - HEAD.cy) ** 2)) + lift;

/** A quad strip of the face: corners in head space, hugging the sphere. */
function faceQuad(pts, lift) {
  const pos = [];
  for (const [x, y] of pts) pos.push(x, y, onFace(x, y, lift));
  return pos;
}

// Face parts, each a set of quads (4 corners: bl, br, tr, tl) whose morph
// targets move the corners. Expressions are functions from corner name
// to a 2D delta.
const BROW_W = 0.036, BROW_H = 0.008;
const browQuad = (side, dy = 0, tiltIn = 0) => {
  // side: +1 the model's left (+X), -1 right. tiltIn lifts the inner end.
  const cx = side * 0.048, cy = HEAD.cy + 0.045 + dy;
  const inner = cx - side * BROW_W / 2, outer = cx + side * BROW_W / 2;
  const yi = cy + tiltIn, yo = cy - tiltIn;
  return [[inner, yi - BROW_H / 2], [outer, yo - BROW_H / 2], [outer, yo + BROW_H / 2], [inner, yi + BROW_H / 2]];
};
// The mouth: a 4-corner quad, (width, open, corner lift).
const mouthQuad = (w = 0.03, open = 0.006, lift = 0, drop = 0) => {
  const cy = HEAD.cy - 0.055;
  return [[-w / 2, cy - open / 2 + lift - drop], [w / 2, cy - open / 2 + lift - drop], [w / 2, cy + open / 2 + lift], [-w / 2, cy + open / 2 + lift]];
};
// Eyelids: a skin quad above each eye, collapsed (height 0) when open.
const EYE = { x: 0.045, y: HEAD.cy - 0.01, r: 0.022 };
const lidQuad = (side, closed) => {
  const x0 = side * EYE.x - EYE.r * 1.3, x1 = side * EYE.x + EYE.r * 1.3;
  const top = EYE.y + EYE.r * 1.4, bottom = closed ? EYE.y - EYE.r * 1.3 : top;
  return [[x0, bottom], [x1, bottom], [x1, top], [x0, top]];
};
const blushQuad = (side, on) => {
  const cx = side * 0.075, cy = HEAD.cy - 0.035, w = on ? 0.03 : 0, h = on ? 0.012 : 0;
  return [[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2], [cx + w / 2, cy + h / 2], [cx - w / 2, cy + h / 2]];
};

/** The face's parts for one state; every expression is a state. */
function faceState(s = {}) {
  return {
    brows: [...browQuad(1, s.browUp ?? 0, s.browTilt ?? 0), ...browQuad(-1, (s.browUp ?? 0) + (s.browRightUp ?? 0), s.browTilt ?? 0)],
    mouth: mouthQuad(s.mouthW, s.mouthOpen, s.mouthLift, s.mouthDrop),
    lids: [...lidQuad(1, s.blinkL ?? false), ...lidQuad(-1, s.blinkR ?? false)],
    blush: [...blushQuad(1, s.blush ?? false), ...blushQuad(-1, s.blush ?? false)],
  };
}

const NEUTRAL = faceState();
// The expressions as face states. A morph target is a state minus NEUTRAL.
const EXPRESSIONS = {
  happy: faceState({ browUp: 0.008, mouthW: 0.046, mouthOpen: 0.014, mouthLift: 0.004, blush: true }),
  angry: faceState({ browUp: -0.004, browTilt: -0.007, mouthW: 0.034, mouthOpen: 0.004, mouthDrop: -0.002 }),
  sad: faceState({ browTilt: 0.008, mouthW: 0.026, mouthOpen: 0.005, mouthDrop: 0.006 }),
  relaxed: faceState({ browUp: -0.002, mouthW: 0.04, mouthOpen: 0.004, mouthLift: 0.003, blush: true }),
  surprised: faceState({ browUp: 0.018, mouthW: 0.022, mouthOpen: 0.03 }),
  aa: faceState({ mouthW: 0.034, mouthOpen: 0.032 }),
  ih: faceState({ mouthW: 0.04, mouthOpen: 0.012 }),
  ou: faceState({ mouthW: 0.016, mouthOpen: 0.02 }),
  ee: faceState({ mouthW: 0.05, mouthOpen: 0.016 }),
  oh: faceState({ mouthW: 0.024, mouthOpen: 0.028 }),
  blink: faceState({ blinkL: true, blinkR: true }),
  blinkLeft: faceState({ blinkL: true }),
  blinkRight: faceState({ blinkR: true }),
  thinking: faceState({ browRightUp: 0.014, mouthW: 0.022, mouthOpen: 0.004, mouthLift: -0.002 }), // custom
};
const PRESETS = ['happy', 'angry', 'sad', 'relaxed', 'surprised', 'aa', 'ih', 'ou', 'ee', 'oh', 'blink', 'blinkLeft', 'blinkRight'];
const CUSTOM = ['thinking'];
const TARGETS = [...PRESETS, ...CUSTOM];

// VRM 0.x preset names of the same expressions.
const V0_PRESET = {
  happy: 'joy', angry: 'angry', sad: 'sorrow', relaxed: 'fun', surprised: 'surprised',
  aa: 'a', ih: 'i', ou: 'u', ee: 'e', oh: 'o', blink: 'blink', blinkLeft: 'blink_l', blinkRight: 'blink_r',
};

// The humanoid skeleton (VRM 1.0 orientation: facing +Z, the model's left
// at +X). Every bone is a translation from its parent; no rotations (the
// rest pose is the T-pose, as VRM requires).
const SKELETON = [
  ['hips', null, [0, 0.78, 0]],
  ['spine', 'hips', [0, 0.08, 0]],
  ['chest', 'spine', [0, 0.12, 0]],
  ['neck', 'chest', [0, 0.2, 0]],
  ['head', 'neck', [0, 0.06, 0]],
  ['leftEye', 'head', [EYE.x, EYE.y, onFace(EYE.x, EYE.y, -0.012)]],
  ['rightEye', 'head', [-EYE.x, EYE.y, onFace(-EYE.x, EYE.y, -0.012)]],
  ['leftShoulder', 'chest', [0.03, 0.17, 0]],
  ['leftUpperArm', 'leftShoulder', [0.07, 0, 0]],
  ['leftLowerArm', 'leftUpperArm', [0.2, 0, 0]],
  ['leftHand', 'leftLowerArm', [0.18, 0, 0]],
  ['rightShoulder', 'chest', [-0.03, 0.17, 0]],
  ['rightUpperArm', 'rightShoulder', [-0.07, 0, 0]],
  ['rightLowerArm', 'rightUpperArm', [-0.2, 0, 0]],
  ['rightHand', 'rightLowerArm', [-0.18, 0, 0]],
  ['leftUpperLeg', 'hips', [0.07, -0.04, 0]],
  ['leftLowerLeg', 'leftUpperLeg', [0, -0.34, 0]],
  ['leftFoot', 'leftLowerLeg', [0, -0.34, 0]],
  ['rightUpperLeg', 'hips', [-0.07, -0.04, 0]],
  ['rightLowerLeg', 'rightUpperLeg', [0, -0.34, 0]],
  ['rightFoot', 'rightLowerLeg', [0, -0.34, 0]],
];

/** A VRM 1.0 or 0.x model. v0 mirrors the figure to face -Z. */
function buildModel(v0) {
  const g = new GLTF();
  const flip = v0 ? -1 : 1; // (x, z) → (-x, -z) for 0.x
  const tf = (p) => { const o = [...p]; for (let i = 0; i < o.length; i += 3) { o[i] *= flip; o[i + 2] *= flip; } return o; };
  const tfv = (v) => [v[0] * flip, v[1], v[2] * flip];

  // Materials.
  const mat = {};
  const v0Props = [];
  for (const name of ['skin', 'hair', 'outfit', 'legs', 'eye', 'brow', 'mouth', 'blush']) {
    const base = COLORS[name], shade = COLORS[`${name}Shade`];
    // VRM 1.0 factors are linear; 0.x colours are sRGB (three-vrm converts them).
    const lin = (c) => c.map((v) => r(v ** 2.2));
    const m = { name, pbrMetallicRoughness: { baseColorFactor: [...(v0 ? base : lin(base)), 1], metallicFactor: 0, roughnessFactor: 1 } };
    if (!v0) {
      m.extensions = {
        KHR_materials_unlit: {},
        VRMC_materials_mtoon: {
          specVersion: '1.0', shadeColorFactor: lin(shade), shadingShiftFactor: -0.1, shadingToonyFactor: 0.9,
          parametricRimColorFactor: [0, 0, 0], outlineWidthMode: name === 'skin' || name === 'hair' || name === 'outfit' ? 'worldCoordinates' : 'none',
          outlineWidthFactor: 0.0025, outlineColorFactor: [0.15, 0.08, 0.2], outlineLightingMixFactor: 0,
        },
      };
    } else {
      v0Props.push({
        name, shader: 'VRM/MToon', renderQueue: 2000, keywordMap: {}, tagMap: { RenderType: 'Opaque' },
        floatProperties: { _ShadeShift: -0.1, _ShadeToony: 0.9, _OutlineWidthMode: name === 'skin' || name === 'hair' || name === 'outfit' ? 1 : 0, _OutlineWidth: 0.25, _OutlineColorMode: 0, _CullMode: 2, _BlendMode: 0 },
        vectorProperties: { _Color: [...base, 1], _ShadeColor: [...shade, 1], _OutlineColor: [0.15, 0.08, 0.2, 1] },
        textureProperties: {},
      });
    }
    g.json.materials.push(m);
    mat[name] = g.json.materials.length - 1;
  }

  // Bones.
  const bone = {};
  const root = g.node({ name: 'Root' });
  for (const [name, parent, t] of SKELETON) {
    bone[name] = g.node({ name: `J_${name}`, translation: tfv(t).map(r) }, parent ? bone[parent] : root);
  }

  /** A rigid mesh node under a bone. */
  const meshOn = (boneName, name, geo, material) => {
    const prim = { attributes: { POSITION: g.vec3(tf(geo.pos)), NORMAL: g.vec3(tf(geo.nor)) }, indices: g.indices(geo.idx), material: mat[material] };
    g.json.meshes.push({ name, primitives: [prim] });
    return g.node({ name, mesh: g.json.meshes.length - 1 }, bone[boneName]);
  };

  const sph = (...a) => sphere(...a);
  meshOn('head', 'Head', sph(0, HEAD.cy, 0, HEAD.r, HEAD.r * 0.98, HEAD.r * 0.95, { seg: 20, rings: 14 }), 'skin');
  meshOn('head', 'HairCap', sph(0, HEAD.cy + 0.006, -0.004, HEAD.r * 1.08, HEAD.r * 1.06, HEAD.r * 1.05, { seg: 20, rings: 8, maxTheta: Math.PI * 0.36 }), 'hair');
  meshOn('head', 'HairBack', box(-0.13, HEAD.cy - 0.1, -0.13, 0.13, HEAD.cy + 0.06, -0.02), 'hair');
  for (const [side, boneName] of [[1, 'leftEye'], [-1, 'rightEye']]) {
    // The iris sits in front of the eye bone, so turning the bone moves it.
    meshOn(boneName, `Eye_${side > 0 ? 'L' : 'R'}`, sph(0, 0, 0.006, EYE.r * 0.8, EYE.r * 1.05, EYE.r * 0.5, { seg: 12, rings: 8 }), 'eye');
  }
  meshOn('neck', 'Neck', box(-0.03, 0, -0.03, 0.03, 0.07, 0.03), 'skin');
  meshOn('chest', 'Chest', box(-0.1, -0.02, -0.07, 0.1, 0.2, 0.07), 'outfit');
  meshOn('spine', 'Waist', box(-0.11, -0.1, -0.075, 0.11, 0.12, 0.075), 'outfit');
  meshOn('hips', 'Skirt', box(-0.14, -0.16, -0.09, 0.14, 0.0, 0.09), 'outfit');
  for (const [s, L] of [[1, 'left'], [-1, 'right']]) {
    const x = (a, b) => (s > 0 ? [a, b] : [-b, -a]);
    const [ua0, ua1] = x(0, 0.2), [la0, la1] = x(0, 0.18);
    meshOn(`${L}UpperArm`, `${L}UpperArm`, box(ua0, -0.03, -0.03, ua1, 0.03, 0.03), 'outfit');
    meshOn(`${L}LowerArm`, `${L}LowerArm`, box(la0, -0.025, -0.025, la1, 0.025, 0.025), 'skin');
    meshOn(`${L}Hand`, `${L}Hand`, sph(s * 0.035, 0, 0, 0.035, 0.03, 0.02, { seg: 10, rings: 6 }), 'skin');
    meshOn(`${L}UpperLeg`, `${L}UpperLeg`, box(-0.045, -0.34, -0.045, 0.045, 0, 0.045), 'legs');
    meshOn(`${L}LowerLeg`, `${L}LowerLeg`, box(-0.04, -0.34, -0.04, 0.04, 0, 0.04), 'legs');
    meshOn(`${L}Foot`, `${L}Foot`, box(-0.04, -0.04, -0.04, 0.04, 0.01, 0.1), 'legs');
  }

  // The ponytail: three joints behind the head, a box on each (spring bones).
  const tail = [];
  let parent = bone.head;
  const tailT = [[0, HEAD.cy + 0.06, -0.14], [0, -0.08, -0.03], [0, -0.08, -0.02]];
  for (let i = 0; i < 3; i++) {
    const n = g.node({ name: `J_Tail${i + 1}`, translation: tfv(tailT[i]).map(r) }, parent);
    tail.push(n);
    const geo = box(-0.03, -0.085, -0.03, 0.03, 0.005, 0.03);
    const prim = { attributes: { POSITION: g.vec3(tf(geo.pos)), NORMAL: g.vec3(tf(geo.nor)) }, indices: g.indices(geo.idx), material: mat.hair };
    g.json.meshes.push({ name: `Tail${i + 1}`, primitives: [prim] });
    g.node({ name: `Tail${i + 1}`, mesh: g.json.meshes.length - 1 }, n);
    parent = n;
  }
  const tailEnd = g.node({ name: 'J_TailEnd', translation: tfv([0, -0.08, 0]).map(r) }, parent);

  // The face: one mesh, four primitives (brows, mouth, lids, blush), every
  // primitive carrying every target (zero where it does not move).
  const part = (key, lift) => {
    const base = [];
    const quads = NEUTRAL[key].length / 4;
    for (let q = 0; q < quads; q++) base.push(...faceQuad(NEUTRAL[key].slice(q * 4, q * 4 + 4), lift));
    const nor = [];
    for (let i = 0; i < base.length; i += 3) nor.push(0, 0, 1);
    const idx = [];
    for (let q = 0; q < quads; q++) idx.push(q * 4, q * 4 + 1, q * 4 + 2, q * 4, q * 4 + 2, q * 4 + 3);
    const targets = TARGETS.map((t) => {
      const st = EXPRESSIONS[t][key];
      const moved = [];
      for (let q = 0; q < quads; q++) moved.push(...faceQuad(st.slice(q * 4, q * 4 + 4), lift));
      return { POSITION: g.vec3(tf(moved.map((v, i) => v - base[i]))) };
    });
    return { attributes: { POSITION: g.vec3(tf(base)), NORMAL: g.vec3(tf(nor)) }, indices: g.indices(idx), targets };
  };
  const face = {
    name: 'Face',
    primitives: [
      { ...part('lids', 0.006), material: mat.skin },
      { ...part('brows', 0.008), material: mat.brow },
      { ...part('mouth', 0.005), material: mat.mouth },
      { ...part('blush', 0.004), material: mat.blush },
    ],
    weights: TARGETS.map(() => 0),
    extras: { targetNames: TARGETS },
  };
  g.json.meshes.push(face);
  const faceMesh = g.json.meshes.length - 1;
  const faceNode = g.node({ name: 'Face', mesh: faceMesh }, bone.head);
  // Double-sided quads: the lids and brows face the camera either way.
  for (const p of face.primitives) g.json.materials[p.material].doubleSided = true;

  if (!v0) {
    const humanBones = {};
    for (const [name] of SKELETON) humanBones[name] = { node: bone[name] };
    const expr = (t) => ({
      morphTargetBinds: [{ node: faceNode, index: TARGETS.indexOf(t), weight: 1 }],
      isBinary: false,
      overrideBlink: t === 'blink' || t.startsWith('blink') ? 'none' : ['happy', 'relaxed', 'surprised', 'sad', 'angry'].includes(t) ? 'blend' : 'none',
      overrideLookAt: 'none', overrideMouth: ['happy', 'surprised'].includes(t) ? 'blend' : 'none',
    });
    g.json.extensionsUsed = ['KHR_materials_unlit', 'VRMC_materials_mtoon', 'VRMC_springBone', 'VRMC_vrm'];
    g.json.extensions = {
      VRMC_vrm: {
        specVersion: '1.0',
        meta: {
          name: 'Yui test model', version: '1', authors: ['Yui tests'], copyrightInformation: 'generated by tests/vrm/generate.mjs',
          licenseUrl: 'https://vrm.dev/licenses/1.0/', avatarPermission: 'everyone', allowExcessivelyViolentUsage: false,
          allowExcessivelySexualUsage: false, commercialUsage: 'personalNonProfit', allowPoliticalOrReligiousUsage: false,
          allowAntisocialOrHateUsage: false, creditNotation: 'unnecessary', allowRedistribution: true, modification: 'allowModification',
        },
        humanoid: { humanBones },
        lookAt: {
          type: 'bone', offsetFromHeadBone: [0, HEAD.cy, 0.1],
          rangeMapHorizontalInner: { inputMaxValue: 90, outputScale: 12 }, rangeMapHorizontalOuter: { inputMaxValue: 90, outputScale: 12 },
          rangeMapVerticalDown: { inputMaxValue: 90, outputScale: 10 }, rangeMapVerticalUp: { inputMaxValue: 90, outputScale: 10 },
        },
        expressions: {
          preset: Object.fromEntries(PRESETS.map((t) => [t, expr(t)])),
          custom: Object.fromEntries(CUSTOM.map((t) => [t, expr(t)])),
        },
      },
      VRMC_springBone: {
        specVersion: '1.0',
        colliders: [{ node: bone.head, shape: { sphere: { offset: [0, HEAD.cy, 0], radius: HEAD.r } } }],
        colliderGroups: [{ name: 'head', colliders: [0] }],
        springs: [{
          name: 'ponytail', colliderGroups: [0],
          joints: [...tail, tailEnd].map((node) => ({ node, hitRadius: 0.02, stiffness: 1.2, gravityPower: 0.4, gravityDir: [0, -1, 0], dragForce: 0.4 })),
        }],
      },
    };
  } else {
    g.json.extensionsUsed = ['VRM'];
    g.json.extensions = {
      VRM: {
        exporterVersion: 'yui-tests-1', specVersion: '0.0',
        meta: {
          title: 'Yui test model 0.x', version: '1', author: 'Yui tests', contactInformation: '', reference: '',
          allowedUserName: 'Everyone', violentUssageName: 'Disallow', sexualUssageName: 'Disallow', commercialUssageName: 'Disallow',
          otherPermissionUrl: '', licenseName: 'CC0', otherLicenseUrl: '',
        },
        humanoid: {
          humanBones: SKELETON.map(([name]) => ({ bone: name, node: bone[name], useDefaultValues: true })),
          armStretch: 0.05, legStretch: 0.05, upperArmTwist: 0.5, lowerArmTwist: 0.5, upperLegTwist: 0.5, lowerLegTwist: 0.5,
          feetSpacing: 0, hasTranslationDoF: false,
        },
        firstPerson: {
          firstPersonBone: bone.head, firstPersonBoneOffset: { x: 0, y: HEAD.cy, z: -0.1 }, meshAnnotations: [],
          lookAtTypeName: 'Bone',
          lookAtHorizontalInner: { curve: [0, 0, 0, 1, 1, 1, 1, 0], xRange: 90, yRange: 12 },
          lookAtHorizontalOuter: { curve: [0, 0, 0, 1, 1, 1, 1, 0], xRange: 90, yRange: 12 },
          lookAtVerticalDown: { curve: [0, 0, 0, 1, 1, 1, 1, 0], xRange: 90, yRange: 10 },
          lookAtVerticalUp: { curve: [0, 0, 0, 1, 1, 1, 1, 0], xRange: 90, yRange: 10 },
        },
        blendShapeMaster: {
          blendShapeGroups: [
            { name: 'Neutral', presetName: 'neutral', binds: [], materialValues: [] },
            ...PRESETS.map((t) => ({ name: V0_PRESET[t], presetName: V0_PRESET[t], binds: [{ mesh: faceMesh, index: TARGETS.indexOf(t), weight: 100 }], materialValues: [], isBinary: false })),
            ...CUSTOM.map((t) => ({ name: t, presetName: 'unknown', binds: [{ mesh: faceMesh, index: TARGETS.indexOf(t), weight: 100 }], materialValues: [], isBinary: false })),
          ],
        },
        secondaryAnimation: {
          boneGroups: [{ comment: 'ponytail', stiffiness: 1.2, gravityPower: 0.4, gravityDir: { x: 0, y: -1, z: 0 }, dragForce: 0.4, center: -1, hitRadius: 0.02, bones: [tail[0]], colliderGroups: [0] }],
          colliderGroups: [{ node: bone.head, colliders: [{ offset: { x: 0, y: HEAD.cy, z: 0 }, radius: HEAD.r }] }],
        },
        materialProperties: v0Props,
      },
    };
  }
  return g.glb();
}

/** cheer.vrma: both arms go up and come down in one second. */
function buildCheer() {
  const g = new GLTF();
  const bone = {};
  for (const [name, parent, t] of SKELETON) {
    bone[name] = g.node({ name, translation: t.map(r) }, parent ? bone[parent] : undefined);
  }
  const times = [0, 0.25, 0.5, 0.75, 1];
  const input = g.scalarF(times);
  // Rotations about Z: the left arm (+X) up is +Z rotation, the right arm -Z.
  const quat = (ang) => [0, 0, Math.sin(ang / 2), Math.cos(ang / 2)];
  const up = [0, 0.9, 1.2, 0.9, 0];
  const left = g.vec4(up.flatMap((a) => quat(a).map(r)));
  const right = g.vec4(up.flatMap((a) => quat(-a).map(r)));
  g.json.animations = [{
    name: 'cheer',
    samplers: [{ input, output: left, interpolation: 'LINEAR' }, { input, output: right, interpolation: 'LINEAR' }],
    channels: [
      { sampler: 0, target: { node: bone.leftUpperArm, path: 'rotation' } },
      { sampler: 1, target: { node: bone.rightUpperArm, path: 'rotation' } },
    ],
  }];
  delete g.json.meshes;
  delete g.json.materials;
  const humanBones = {};
  for (const [name] of SKELETON) humanBones[name] = { node: bone[name] };
  g.json.extensionsUsed = ['VRMC_vrm_animation'];
  g.json.extensions = { VRMC_vrm_animation: { specVersion: '1.0', humanoid: { humanBones } } };
  return g.glb();
}

/** Every generated file by name. */
export function generate() {
  return {
    'yui-test-1.0.vrm': buildModel(false),
    'yui-test-0.x.vrm': buildModel(true),
    'cheer.vrma': buildCheer(),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = process.argv[2] ?? dirname(fileURLToPath(import.meta.url));
  for (const [name, bytes] of Object.entries(generate())) {
    writeFileSync(join(out, name), bytes);
    console.log(`${name}: ${bytes.length} bytes`);
  }
}
