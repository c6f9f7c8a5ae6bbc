// What the character can render, declared by the renderer: the build writes
// this to dist/vocabulary.json, the core reads it and publishes it in
// hello.vocabulary. Derived from character.ts so the two cannot disagree.

import { CLIENT_MOTIONS, EMOTIONS, MOTIONS } from './character';
import { VRM_CLIENT_MOTIONS, VRM_MOTIONS } from './vrm/motions';

export interface Vocabulary {
  emotion_ids: string[];
  motion_ids: string[];
  client_motion_ids: string[];
  /** A VRM look's motions (its emotions come from its model's mapping,
   * which the core resolves; its clips add motions). */
  vrm: { motion_ids: string[]; client_motion_ids: string[] };
}

export const vocabulary: Vocabulary = {
  emotion_ids: Object.keys(EMOTIONS),
  motion_ids: [...MOTIONS],
  client_motion_ids: [...CLIENT_MOTIONS],
  vrm: { motion_ids: [...VRM_MOTIONS], client_motion_ids: [...VRM_CLIENT_MOTIONS] },
};
