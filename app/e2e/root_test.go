//go:build e2e

package e2e

// repoRoot is the repository root seen from this package's directory, where
// `go test` runs the tests.
const repoRoot = "../.."
