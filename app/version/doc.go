// Package version is Yui's version string. The build sets it from
// `git describe` (build/version.sh) with
//
//	-ldflags "-X yui/app/version.value=0.1.0+3.g1a2b3c4"
//
// A build without that flag (go build, go test) reports "0.0.0-dev", with
// the VCS revision when the Go toolchain recorded one.
package version
