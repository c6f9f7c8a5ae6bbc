import { parseCoreMessage, type CoreMessage, type PageMessage } from './protocol';

export type ConnectionState = 'connecting' | 'open' | 'closed';

/**
 * The page's one WebSocket to the core. It never reconnects on its own: the
 * core going away ends the window process, and in a browser a reload is the
 * honest answer. Frames the page cannot read are dropped with a console line.
 */
export class CoreConnection {
  private ws: WebSocket | null = null;

  constructor(
    private readonly url: string,
    private readonly onMessage: (m: CoreMessage) => void,
    private readonly onState: (s: ConnectionState) => void,
    private readonly makeSocket: (url: string) => WebSocket = (u) => new WebSocket(u),
  ) {}

  open(): void {
    this.onState('connecting');
    const ws = this.makeSocket(this.url);
    this.ws = ws;
    ws.onopen = () => this.onState('open');
    ws.onclose = () => this.onState('closed');
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
