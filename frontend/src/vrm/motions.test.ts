import { describe, expect, it } from 'vitest';
import { BONES, MOTIONS, REACTIONS, VRM_CLIENT_MOTIONS, VRM_MOTIONS, addPoses, motionMoving, motionPose } from './motions';

describe('procedural motions', () => {
  it('draws every motion the vocabulary declares, with finite angles on known bones', () => {
    for (const id of [...VRM_MOTIONS, ...VRM_CLIENT_MOTIONS]) {
      const m = MOTIONS[id];
      expect(m, id).toBeDefined();
      for (let t = 0; t <= m!.duration * 1.5; t += 0.1) {
        const p = motionPose(m!, t);
        for (const [b, r] of Object.entries(p.rot)) {
          expect(BONES as readonly string[], `${id}: ${b}`).toContain(b);
          expect(r.every(Number.isFinite), `${id} at ${t}`).toBe(true);
        }
        expect(Number.isFinite(p.lift ?? 0)).toBe(true);
      }
    }
  });

  it('bounded motions start and end at rest, and stop moving', () => {
    for (const [id, m] of Object.entries({ ...MOTIONS, ...REACTIONS })) {
      if (m.loop || m.hold) continue;
      for (const t of [0, m.duration]) {
        const p = m.at(t);
        for (const r of Object.values(p.rot)) expect(Math.max(...r.map(Math.abs)), `${id} at ${t}`).toBeLessThan(1e-6);
      }
      expect(motionMoving(m, m.duration)).toBe(false);
      expect(motionPose(m, m.duration + 1)).toEqual({ rot: {} });
    }
  });

  it('a held pose keeps its last frame; a loop keeps moving', () => {
    const sit = MOTIONS.window_sit!;
    expect(motionPose(sit, 100)).toEqual(sit.at(sit.duration));
    expect(motionMoving(sit, 100)).toBe(false);
    expect(motionMoving(MOTIONS.walk!, 100)).toBe(true);
    expect(motionPose(MOTIONS.walk!, 0.25)).not.toEqual(motionPose(MOTIONS.walk!, 0.75));
  });

  it('the wave raises her right arm; the nod tips her head forward', () => {
    const wave = motionPose(MOTIONS.wave!, 1.2);
    expect(wave.rot.rightUpperArm![2]).toBeLessThan(-1.5);
    const nod = motionPose(MOTIONS.nod!, 0.15);
    expect(nod.rot.head![0]).toBeGreaterThan(0.1);
  });

  it('adds poses bone by bone', () => {
    expect(addPoses({ rot: { head: [0.1, 0, 0] }, lift: 0.01 }, { rot: { head: [0.1, 0.2, 0], neck: [0, 0, 0.3] } }))
      .toEqual({ rot: { head: [0.2, 0.2, 0], neck: [0, 0, 0.3] }, lift: 0.01 });
  });
});
