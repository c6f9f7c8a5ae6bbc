import { describe, expect, it } from 'vitest';
import { CoreConnection } from './connection';
import type { CoreMessage } from './protocol';

class FakeSocket {
  static OPEN = 1;
  readyState = 0;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onclose: ((e?: CloseEvent) => void) | null = null;
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

  it('reconnects, with a growing delay, only after the core dropped it for falling behind', () => {
    const states: string[] = [];
    const socks: FakeSocket[] = [];
    const timers: { fn: () => void; ms: number }[] = [];
    const c = new CoreConnection('ws://x/view', () => {}, (s) => states.push(s), () => {
      const s = new FakeSocket();
      socks.push(s);
      return s as unknown as WebSocket;
    }, (fn, ms) => timers.push({ fn, ms }));
    c.open();
    socks[0].onopen!();
    socks[0].onclose!({ code: 4408 } as CloseEvent);
    expect(timers.map((t) => t.ms)).toEqual([250]);
    timers[0].fn();
    expect(socks.length).toBe(2);
    socks[1].onclose!({ code: 1006 } as CloseEvent); // dropped again before it opened
    expect(timers.map((t) => t.ms)).toEqual([250, 500]);
    timers[1].fn();
    socks[2].onopen!();
    socks[2].onclose!({ code: 4408 } as CloseEvent);
    expect(timers.map((t) => t.ms)).toEqual([250, 500, 250]); // an open resets the delay
    timers[2].fn();
    socks[3].onopen!();
    socks[3].onclose!({ code: 1001 } as CloseEvent); // the core going away: no reconnect
    socks[3].onclose!({ code: 1000 } as CloseEvent);
    expect(timers.length).toBe(3);
    expect(states).toEqual(['connecting', 'open', 'closed', 'connecting', 'closed', 'connecting', 'open', 'closed',
      'connecting', 'open', 'closed', 'closed']);
  });
});
