import { describe, expect, it } from 'vitest';
import { CoreConnection } from './connection';
import type { CoreMessage } from './protocol';

class FakeSocket {
  static OPEN = 1;
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  send(s: string) {
    this.sent.push(s);
  }
}

describe('CoreConnection', () => {
  it('delivers readable messages, drops others, and sends only when open', () => {
    const got: CoreMessage[] = [];
    const states: string[] = [];
    let sock!: FakeSocket;
    const c = new CoreConnection('ws://x/view', (m) => got.push(m), (s) => states.push(s), () => {
      sock = new FakeSocket();
      return sock as unknown as WebSocket;
    });
    c.open();
    expect(c.send({ type: 'stop' })).toBe(false);
    sock.readyState = WebSocket.OPEN;
    sock.onopen!();
    sock.onmessage!({ data: '{"type":"composer","locked":true}' } as MessageEvent);
    sock.onmessage!({ data: 'garbage' } as MessageEvent);
    expect(got).toEqual([{ type: 'composer', locked: true }]);
    expect(c.send({ type: 'send_text', text: 'hi' })).toBe(true);
    expect(sock.sent).toEqual(['{"type":"send_text","text":"hi"}']);
    sock.onclose!();
    expect(states).toEqual(['connecting', 'open', 'closed']);
  });
});
