package mcp_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMain makes the test binary a real MCP server built from the SDK
// when started as "<test binary> mcp-test-server" (the stdio server of
// the end-to-end tests; its environment is the one the hub gave it).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == "mcp-test-server" {
		if err := testServer(nil).Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if len(os.Args) > 1 && os.Args[1] == "mcp-silent" {
		// A server that never answers initialize: reads its input to the end.
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type textIn struct {
	Text string `json:"text" jsonschema:"the text to echo"`
}

type none struct{}

func text(s string) *sdk.CallToolResult {
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: s}}}
}

// testServer offers echo (the result), env (its environment), crash
// (exits), hang (never answers) and flood (a result over the bound).
// release lets an in-process hang end when its test does (nil: never).
func testServer(release <-chan struct{}) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "yui-test", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "echo", Description: "Echo the text."},
		func(_ context.Context, _ *sdk.CallToolRequest, in textIn) (*sdk.CallToolResult, any, error) {
			return text("echo: " + in.Text + fmt.Sprintf(" (pid %d)", os.Getpid())), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "env", Description: "The server's environment."},
		func(context.Context, *sdk.CallToolRequest, none) (*sdk.CallToolResult, any, error) {
			return text(strings.Join(os.Environ(), "\n")), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "crash", Description: "Exit at once."},
		func(context.Context, *sdk.CallToolRequest, none) (*sdk.CallToolResult, any, error) {
			os.Exit(3)
			return nil, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "hang", Description: "Never answer."},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
			<-release // ignores the cancel too
			return text("late"), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "floodline", Description: "Write one line over the message bound."},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ none) (*sdk.CallToolResult, any, error) {
			os.Stdout.WriteString(`{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"` + strings.Repeat("y", 2<<20) + "\"}}\n")
			<-ctx.Done()
			return text("late"), nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "flood", Description: "Answer too much."},
		func(context.Context, *sdk.CallToolRequest, none) (*sdk.CallToolResult, any, error) {
			return text(strings.Repeat("x", 200<<10)), nil, nil
		})
	return s
}

// httpServer serves testServer over streamable HTTP.
func httpServer(t *testing.T) *httptest.Server {
	release := make(chan struct{})
	srv := testServer(release)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil)
	hs := httptest.NewServer(h)
	t.Cleanup(func() {
		close(release)
		hs.CloseClientConnections()
		hs.Close()
	})
	return hs
}
