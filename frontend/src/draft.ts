// A line the composer sent and the core has not answered yet. Writing it to
// the socket is not acceptance: the core may still refuse it. So the page
// keeps the typed text and the attached images until the core answers:
//
//  - `composer {locked: true}`: the turn went out (accepted): clear them;
//  - `error_line` (where "composer", non-empty text): refused, e.g. an image
//    it cannot use or more than six images: keep them to fix and resend;
//  - a `bubble` of kind "failure": the turn was refused with a failure line
//    (e.g. no connection): keep them to resend;
//  - no answer at all: keep them. Only acceptance ever clears the draft.
//
// While an answer is awaited (at most ANSWER_WAIT_MS), a second send is
// ignored, so a repeated Enter does not send the same line twice.

import type { CoreMessage } from './protocol';

export const ANSWER_WAIT_MS = 3000;

export type Answer = 'accepted' | 'refused';

export interface SentDraft {
  text: string;
  images: string[];
}

export class PendingSend {
  private draft: SentDraft | null = null;
  private sentAt = 0;

  constructor(private readonly now: () => number) {}

  /** Records a line written to the socket. */
  sent(draft: SentDraft): void {
    this.draft = { text: draft.text, images: [...draft.images] };
    this.sentAt = this.now();
  }

  /** True while a send is unanswered and younger than ANSWER_WAIT_MS. */
  get awaiting(): boolean {
    return this.draft !== null && this.now() - this.sentAt < ANSWER_WAIT_MS;
  }

  /** Reads one core message as an answer to the unanswered send: returns
   * the answer and the draft it settles (null when `m` answers nothing);
   * after an answer nothing is pending any more. */
  answer(m: CoreMessage): { answer: Answer; draft: SentDraft } | null {
    const draft = this.draft;
    if (draft === null) return null;
    let a: Answer | null = null;
    if (m.type === 'composer' && m.locked) a = 'accepted';
    else if (m.type === 'error_line' && m.where === 'composer' && m.text !== '') a = 'refused';
    else if (m.type === 'bubble' && m.kind === 'failure' && m.text !== '') a = 'refused';
    if (a === null) return null;
    this.draft = null;
    return { answer: a, draft };
  }
}
