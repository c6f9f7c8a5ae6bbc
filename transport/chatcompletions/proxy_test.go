package chatcompletions_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"

	"yui/transport"
	"yui/transport/chatcompletions"
)

const proxyChild = "YUI_CC_PROXY_CHILD"

// The wire's default client honours the environment's proxy as every
// other HTTP client of Yui does (issue 23: the chat wires ignored it while
// the voice clients honoured it; docs/transports.md "HTTP clients"). In a
// process of its own: the environment is read once per process.
func TestTheDefaultClientGoesThroughTheEnvironmentsProxy(t *testing.T) {
	if os.Getenv(proxyChild) != "" {
		proxiedTurn(t)
		return
	}
	var asked []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.Method+" "+r.URL.String())
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"choices\":[{\"delta\":{\"content\":\"Via the proxy.\"}}]}\n\ndata: [DONE]\n\n")
	}))
	defer proxy.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^TestTheDefaultClientGoesThroughTheEnvironmentsProxy$")
	cmd.Env = append(os.Environ(), proxyChild+"=1", "HTTP_PROXY="+proxy.URL, "http_proxy=", "NO_PROXY=", "no_proxy=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if len(asked) != 1 || asked[0] != "POST http://api.example.test/v1/chat/completions" {
		t.Fatalf("the proxy was asked %q, want the turn's request", asked)
	}
}

func proxiedTurn(t *testing.T) {
	tr, err := chatcompletions.New(chatcompletions.Config{Endpoint: func() string { return "http://api.example.test/v1" }, Key: func() string { return "k" }})
	if err != nil {
		t.Fatal(err)
	}
	r := newRec()
	tr.Start(r.Handler())
	defer tr.Close()
	if err := tr.SendTurn(context.Background(), transport.Turn{TurnID: "1", Text: "hi", ClientContext: "<client_context>\ntrigger: user message\n</client_context>"}); err != nil {
		t.Fatal(err)
	}
	r.WaitEnd(t, "1")
	if got := strings.Join(r.Got(), "|"); !strings.Contains(got, "say Via the proxy.") {
		t.Fatalf("turn %q, want the proxied reply", got)
	}
}
