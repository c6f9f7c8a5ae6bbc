// Package settings holds Yui's user settings: the character presets and
// their backend, permission and window fields.
//
// The settings live in one JSON file, settings.json, in the directory the
// caller names (normally os.UserConfigDir()/yui). Writes are atomic and the
// file has mode 0600 because it holds API keys.
//
// At open, temporary files a crash left in the directory are removed, a
// file others may read or write is made 0600, and a file over 1 MiB is
// refused as unusable without being read whole. A symbolic link at the
// file's place is followed for reading and writing (a link to nothing is
// refused with an error naming it).
//
// Load never loses data: a file that does not parse or does not validate is
// renamed aside (settings.json.bad, or .bad.N when that exists), defaults are
// used and written, and the returned Report names the field that was wrong so
// the UI can tell the user.
//
// A Store serialises access: its methods may be called from any goroutine.
package settings
