package autostart

import (
	"testing"

	"golang.org/x/sys/windows/registry"
)

// The Run value, in the registry of the user running the test (under Wine,
// the private prefix's; make wine-test, docs/windows.md): written with the
// program's command line, read back, disabled by Task Manager's mark,
// enabled again (the mark cleared) and removed.
func TestRunValueWrittenReadAndRemoved(t *testing.T) {
	exe := `C:\Program Files\Yui\yui.exe`
	e, err := New(exe, []string{"--from-login"}, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Set(false) })
	if want := `HKCU\` + runKey + `\` + ValueName; e.Where() != want {
		t.Fatalf("Where = %s, want %s", e.Where(), want)
	}
	if err := e.Set(false); err != nil {
		t.Fatal(err)
	}
	if on, err := e.Enabled(); err != nil || on {
		t.Fatalf("before: enabled %v, %v", on, err)
	}
	if err := e.Set(true); err != nil {
		t.Fatal(err)
	}
	k, err := registry.OpenKey(registry.CURRENT_USER, runKey, registry.QUERY_VALUE)
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := k.GetStringValue(ValueName)
	k.Close()
	if want := `"C:\Program Files\Yui\yui.exe" --from-login`; err != nil || v != want {
		t.Fatalf("Run value %q (%v), want %q", v, err, want)
	}
	if on, err := e.Enabled(); err != nil || !on {
		t.Fatalf("after Set(true): enabled %v, %v", on, err)
	}
	// Task Manager's "Disabled": an odd first byte under StartupApproved.
	a, _, err := registry.CreateKey(registry.CURRENT_USER, approvedKey, registry.SET_VALUE)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.SetBinaryValue(ValueName, []byte{3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	a.Close()
	if on, err := e.Enabled(); err != nil || on {
		t.Fatalf("disabled in Task Manager: enabled %v, %v", on, err)
	}
	if err := e.Set(true); err != nil {
		t.Fatal(err)
	}
	if on, err := e.Enabled(); err != nil || !on {
		t.Fatalf("Set(true) after Task Manager's mark: enabled %v, %v (the mark should be cleared)", on, err)
	}
	if err := e.Set(false); err != nil {
		t.Fatal(err)
	}
	if on, err := e.Enabled(); err != nil || on {
		t.Fatalf("after Set(false): enabled %v, %v", on, err)
	}
}
