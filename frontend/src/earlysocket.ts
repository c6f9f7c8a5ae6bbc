// The page's view socket, opened as soon as the page knows where the core
// is (src/main.ts), before its role's chunk is loaded and its view is
// built: the handshake and the core's first state then arrive while the
// page is still loading instead of after (docs/performance.md). What
// arrives before the connection takes the socket is held and handed over
// in order.

type Held = ['open', Event] | ['message', MessageEvent] | ['close', CloseEvent];

/**
 * Opens a WebSocket to url now and returns a makeSocket for
 * CoreConnection: its first call for url gets this socket, with what it
 * received so far replayed to the handlers the connection sets (in a
 * microtask right after, so before anything the socket receives later);
 * later calls (a reconnect) open new sockets.
 */
export function earlySocket(url: string, open: (u: string) => WebSocket = (u) => new WebSocket(u)): (u: string) => WebSocket {
  const ws = open(url);
  const held: Held[] = [];
  ws.onopen = (e) => held.push(['open', e]);
  ws.onmessage = (e) => held.push(['message', e]);
  ws.onclose = (e) => held.push(['close', e]);
  let taken = false;
  return (u) => {
    if (taken || u !== url) return open(u);
    taken = true;
    queueMicrotask(() => {
      for (const h of held) {
        if (h[0] === 'open') ws.onopen?.call(ws, h[1]);
        else if (h[0] === 'message') ws.onmessage?.call(ws, h[1]);
        else ws.onclose?.call(ws, h[1]);
      }
      held.length = 0;
    });
    return ws;
  };
}
