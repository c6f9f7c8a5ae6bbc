// Package supervisor keeps the core's child processes (the window
// processes) running: it starts each one, restarts it when it dies with a
// growing delay (0.5 s doubling to 8 s), and gives up on a child that failed
// 5 times within one minute, logging window_give_up.
//
// Stop ends every child and waits for them: a child first gets a moment to
// exit by itself (window processes quit when the core's view server
// closes), then SIGTERM, then SIGKILL. A Supervisor's methods may be called from any goroutine.
package supervisor
