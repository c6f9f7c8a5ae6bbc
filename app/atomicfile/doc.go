// Package atomicfile writes files so that a crash at any moment leaves either
// the old content or the new content on disk, never a mix or an empty file.
//
// A write goes to a temporary file in the same directory, is synced, gets its
// final mode, and is renamed over the target; the directory is then synced so
// the rename itself survives a power loss. The temporary file is 0600 until
// the data is on disk; a symbolic link at the target is written through, not
// replaced. Sweep removes the temporary files a crash left behind.
//
// Functions here are safe to call from several goroutines for different
// paths; concurrent writers of the same path race only in which complete
// content wins.
package atomicfile
