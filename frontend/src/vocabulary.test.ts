import { describe, expect, it } from 'vitest';
import { vocabulary } from './vocabulary';
import { Character } from './character';
import { FakeMotion, FakeScheduler } from './test-helpers';
import { MOTIONS as VRM_MOTION_TABLE } from './vrm/motions';

describe('vocabulary', () => {
  it('declares the field names the core reads', () => {
    expect(Object.keys(vocabulary).sort()).toEqual(['client_motion_ids', 'emotion_ids', 'motion_ids', 'vrm']);
    expect(vocabulary.emotion_ids).toHaveLength(10);
    expect(vocabulary.motion_ids).toEqual(['happy', 'laugh', 'embarrassed', 'sheepish', 'calm', 'sleeping', 'idle_lively', 'dance', 'sulk']);
    expect(vocabulary.client_motion_ids).toEqual(expect.arrayContaining(['idle', 'thinking', 'drag']));
  });

  it('lists exactly what the character renders without falling back', () => {
    const c = new Character(new FakeScheduler(), new FakeMotion());
    for (const e of vocabulary.emotion_ids) {
      c.setEmotion(e);
      expect(c.el.dataset.emotion).toBe(e);
    }
    for (const m of [...vocabulary.motion_ids, ...vocabulary.client_motion_ids]) {
      c.setMotion(m);
      expect(c.el.dataset.motion).toBe(m);
    }
  });

  it('lists the motions of a VRM look, each one it draws', () => {
    for (const m of [...vocabulary.vrm.motion_ids, ...vocabulary.vrm.client_motion_ids]) {
      expect(VRM_MOTION_TABLE[m], m).toBeDefined();
    }
    expect(vocabulary.vrm.motion_ids).toEqual(expect.arrayContaining(['nod', 'wave', 'bow', ...vocabulary.motion_ids]));
    expect(vocabulary.vrm.client_motion_ids).toEqual(['idle', 'thinking', 'drag', 'peek', 'walk', 'window_sit']);
  });
});
