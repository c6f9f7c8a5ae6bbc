import { parseCoreMessage, type CoreMessage, type PageMessage } from './protocol';

export type ConnectionState = 'connecting' | 'open' | 'closed';

/** Close code of a page the core dropped for falling behind (app/view CloseTooSlow). */
export const CLOSE_TOO_SLOW = 4408;
/** A socket that ended without a close frame (the core cut a stalled write). */
export const CLOSE_ABNORMAL = 1006;

/** Reconnect delays after a drop: the first, doubling up to the cap. */
export const RECONNECT_FIRST_MS = 250;
export const RECONNECT_CAP_MS = 5000;

/**
 * The page's one WebSocket to the core. The core going away ends the
 * window process, and in a browser a reload is the honest answer, so the
 * page does not reconnect after an ordinary close. It does reconnect after
 * the core dropped it for falling behind (CLOSE_TOO_SLOW, or an abnormal
 * close when a stalled write was cut): the core then replays its state.
 * Frames the page cannot read are dropped with a console line.
 */
export class CoreConnection {
  private ws: WebSocket | null = null;
  private delay = RECONNECT_FIRST_MS;

  constructor(
    private readonly url: string,
    private readonly onMessage: (m: CoreMessage) => void,
    private readonly onState: (s: ConnectionState) => void,
    private readonly makeSocket: (url: string) => WebSocket = (u) => new WebSocket(u),
    private readonly schedule: (fn: () => void, ms: number) => void = (fn, ms) => {
      setTimeout(fn, ms);
    },
  ) {}

  open(): void {
    this.onState('connecting');
    const ws = this.makeSocket(this.url);
    this.ws = ws;
    ws.onopen = () => {
      this.delay = RECONNECT_FIRST_MS;
      this.onState('open');
    };
    ws.onclose = (ev?: CloseEvent) => {
      if (this.ws !== ws) return;
      this.onState('closed');
      const code = ev?.code;
      if (code === CLOSE_TOO_SLOW || code === CLOSE_ABNORMAL) {
        const wait = this.delay;
        this.delay = Math.min(this.delay * 2, RECONNECT_CAP_MS);
        this.schedule(() => this.open(), wait);
      }
    };
    ws.onmessage = (ev: MessageEvent) => {
      const m = parseCoreMessage(ev.data);
      if (m === null) {
        console.warn('yui: dropped unreadable view message');
        return;
      }
      this.onMessage(m);
    };
  }

  send(m: PageMessage): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(m));
    return true;
  }
}
