// Package e2e holds Yui's end-to-end tests of the built binary under a
// private Xvfb + xcompmgr (build tag e2e; `make e2e` builds the binary and
// runs them). It has no non-test code.
package e2e
