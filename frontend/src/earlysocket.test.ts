import { describe, expect, it } from 'vitest';
import { CoreConnection } from './connection';
import { earlySocket } from './earlysocket';

/** A socket the test drives. */
class FakeSocket {
  static OPEN = 1;
  readyState = 0;
  sent: string[] = [];
  onopen: ((e: Event) => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  onclose: ((e: CloseEvent) => void) | null = null;
  constructor(readonly url: string) {}
  send(s: string): void {
    this.sent.push(s);
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  message(data: string): void {
    this.onmessage?.(new MessageEvent('message', { data }));
  }
}

describe('earlySocket', () => {
  it('hands the connection the socket it opened, with what arrived before, in order', async () => {
    const made: FakeSocket[] = [];
    const make = earlySocket('ws://core/view', (u) => {
      const s = new FakeSocket(u);
      made.push(s);
      return s as unknown as WebSocket;
    });
    expect(made.length).toBe(1); // opened at once
    made[0]!.open();
    made[0]!.message(JSON.stringify({ type: 'plate', kind: 'thinking', text: 'Thinking' }));
    made[0]!.message(JSON.stringify({ type: 'composer', locked: false }));
    const got: string[] = [];
    const states: string[] = [];
    const conn = new CoreConnection('ws://core/view', (m) => got.push(m.type), (s) => states.push(s), make);
    conn.open();
    expect(made.length).toBe(1); // the early socket, not a new one
    await Promise.resolve();
    expect(states).toEqual(['connecting', 'open']);
    expect(got).toEqual(['plate', 'composer']);
    made[0]!.message(JSON.stringify({ type: 'plate', kind: '', text: '' }));
    expect(got).toEqual(['plate', 'composer', 'plate']);
    expect(make('ws://core/view')).not.toBe(made[0]); // a reconnect opens a new socket
  });
});
