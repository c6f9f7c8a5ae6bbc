// What the character can render, declared by the renderer: the build writes
// this to dist/vocabulary.json, the core reads it and publishes it in
// hello.vocabulary. Derived from character.ts so the two cannot disagree.

import { CLIENT_MOTIONS, EMOTIONS, MOTIONS } from './character';

export interface Vocabulary {
  emotion_ids: string[];
  motion_ids: string[];
  client_motion_ids: string[];
}

export const vocabulary: Vocabulary = {
  emotion_ids: Object.keys(EMOTIONS),
  motion_ids: [...MOTIONS],
  client_motion_ids: [...CLIENT_MOTIONS],
};
