package pulsetest

// Pid is the server process's id (the listener's figures read its CPU
// time from /proc).
func (s *Server) Pid() int { return s.cmd.Process.Pid }
