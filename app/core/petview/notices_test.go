package petview

import "testing"

// The tip's English (the console's, the tests') is its phrase's.
func TestFirstRunTipIsItsPhrase(t *testing.T) {
	if got := firstRunTip.English(); got != FirstRunTip {
		t.Fatalf("the tip's phrase reads %q, FirstRunTip %q", got, FirstRunTip)
	}
}
