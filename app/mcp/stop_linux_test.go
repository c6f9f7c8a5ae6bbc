package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"yui/app/mcp"
	"yui/app/settings"
	"yui/transport"
)

// TestStdioServerStopsWithHer: Close returns once the server's process is
// gone.
func TestStdioServerStopsWithHer(t *testing.T) {
	listed := make(chan struct{}, 1)
	hub := mcp.New(mcp.Config{Servers: []settings.MCPServer{stdioServer(t)},
		Grants:  settings.MCPGrants{"mcp_tools__echo": "allow"},
		OnTools: func(string) { listed <- struct{}{} }})
	hub.Start()
	select {
	case <-listed:
	case <-time.After(20 * time.Second):
		t.Fatal("never listed")
	}
	var echo transport.Tool
	for _, tl := range hub.Tools() {
		if tl.Schema().Name == "mcp_tools__echo" {
			echo = tl
		}
	}
	res, _, err := echo.Run(context.Background(), transport.ToolCall{Name: "mcp_tools__echo", Arguments: json.RawMessage(`{"text":"x"}`)})
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`\(pid (\d+)\)`).FindStringSubmatch(res)
	if m == nil {
		t.Fatalf("result %q", res)
	}
	pid, _ := strconv.Atoi(m[1])
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("the server is not running before Close: %v", err)
	}
	hub.Close()
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("the server %d is still there after Close: %v", pid, err)
	}
}
