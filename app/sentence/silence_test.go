package sentence

import "testing"

func TestIsSilent(t *testing.T) {
	cases := []struct {
		in   string
		want bool
	}{
		{"", true},
		{"   ", true},
		{"\n\t", true},
		{"[SILENT]", true},
		{"  [SILENT]\n", true},
		{"[silent]", false},
		{"[SILENT] ok", false},
		{"ok [SILENT]", false},
		{"[SILENT][SILENT]", false},
		{"Hi.", false},
		{".", false},
	}
	for _, tc := range cases {
		if got := IsSilent(tc.in); got != tc.want {
			t.Errorf("IsSilent(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}
