// Package keyarg reads a chat API key for a command-line tool (`yui
// console`, `yui demo-backend`) without putting it on the command line,
// where every local user can read it (ps, /proc/PID/cmdline).
//
// The key comes from, in order: --key-file PATH (the file's content, with
// surrounding whitespace trimmed), or the YUI_KEY environment variable. The
// old --key KEY still works but earns a warning. Giving both --key and
// --key-file is a usage error. The package only reads; the caller decides
// whether a missing key is an error.
package keyarg
