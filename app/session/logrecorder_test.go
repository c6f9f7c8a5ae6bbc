package session_test

import "yui/transport/transporttest"

// logRecorder keeps the log lines a test asserts on (transporttest.Logs,
// under the name this package's tests use).
type logRecorder = transporttest.Logs
