package push

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/coder/websocket"

	"yui/transport/httpapi"
)

// Probe tries a backend once, as the settings window's "Test connection"
// does: it dials endpoint's socket, sends a hello with key and chatID
// (and no tools) and waits for ready, within HelloWait or ctx. It returns
// nil on ready, an error wrapping ErrUnauthorized on a 4401 close, and a
// wrapped error otherwise. The socket is closed with 1000 either way. hc
// nil is httpapi.NewClient(); no redirect is followed either way.
func Probe(ctx context.Context, hc *http.Client, endpoint, key, chatID string) error {
	u, err := WebSocketURL(endpoint)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, HelloWait)
	defer cancel()
	conn, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: httpapi.Guard(hc)})
	err = upgradeError(resp, err)
	if err != nil {
		return fmt.Errorf("push: dial %s: %w", u, err)
	}
	defer conn.CloseNow()
	conn.SetReadLimit(MaxFrameBytes)
	b, err := Encode(Hello{Key: key, ChatID: chatID, Accepts: Accepts})
	if err != nil {
		return err
	}
	if err := conn.Write(ctx, websocket.MessageText, b); err != nil {
		return fmt.Errorf("push: send hello: %w", err)
	}
	for {
		_, data, err := conn.Read(ctx)
		if err != nil {
			if websocket.CloseStatus(err) == 4401 {
				return ErrUnauthorized
			}
			if errors.Is(err, io.EOF) || websocket.CloseStatus(err) != -1 {
				return fmt.Errorf("push: the backend closed the socket before ready: %w", err)
			}
			return fmt.Errorf("push: waiting for ready: %w", err)
		}
		if f, err := DecodeInbound(data); err == nil {
			if _, ok := f.(Ready); ok {
				conn.Close(websocket.StatusNormalClosure, "probe done")
				return nil
			}
		}
	}
}
