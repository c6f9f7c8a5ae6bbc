//go:build e2e

package e2e

import (
	"bytes"
	"crypto/sha256"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The packages `make dist` builds, checked the way a user's system would
// see them. make dist-check runs these with YUI_DEB, YUI_SETUP, YUI_BIN,
// YUI_WIN_BIN, YUI_VERSION and WEBVIEW2_SETUP set.

func distEnv(t *testing.T, name string) string {
	t.Helper()
	v := os.Getenv(name)
	if v == "" {
		t.Skipf("%s not set (run make dist-check)", name)
	}
	return v
}

func tool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("YUI_REQUIRE_TOOLS") != "" {
			t.Fatalf("%s is missing (make desktop-deps installs it)", name)
		}
		t.Skipf("%s not installed", name)
	}
	return p
}

func run(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := exec.Command(name, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
	return string(out)
}

func sha(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}

func TestDistDebInstallsIntoAThrowawayRoot(t *testing.T) {
	deb := distEnv(t, "YUI_DEB")
	version := distEnv(t, "YUI_VERSION")
	tool(t, "dpkg-deb")
	if filepath.Base(deb) != "yui_"+version+"_amd64.deb" {
		t.Fatalf("package named %s for version %s", filepath.Base(deb), version)
	}
	fields := map[string]string{}
	for _, f := range []string{"Package", "Version", "Architecture", "Depends", "Recommends", "Installed-Size", "Maintainer", "Description"} {
		fields[f] = strings.TrimSpace(run(t, "dpkg-deb", "-f", deb, f))
	}
	if fields["Package"] != "yui" || fields["Version"] != version || fields["Architecture"] != "amd64" {
		t.Fatalf("control fields %v", fields)
	}
	// Depends come from dpkg-shlibdeps: the libraries the binary links.
	for _, lib := range []string{"libc6", "libgtk-3-0", "libwebkit2gtk-4.1-0"} {
		if !regexp.MustCompile(`(^|, )` + regexp.QuoteMeta(lib) + `( \(|,|$)`).MatchString(fields["Depends"]) {
			t.Errorf("Depends %q lacks %s", fields["Depends"], lib)
		}
	}
	// A CJK font, so Japanese, Korean and Chinese never show as boxes
	// (docs/languages.md).
	if !regexp.MustCompile(`(^|, )fonts-noto-cjk(,|$)`).MatchString(fields["Recommends"]) {
		t.Errorf("Recommends %q lacks fonts-noto-cjk", fields["Recommends"])
	}

	root := t.TempDir()
	run(t, "dpkg-deb", "-x", deb, root)
	bin := filepath.Join(root, "usr/bin/yui")
	fi, err := os.Stat(bin)
	if err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("usr/bin/yui: %v %v", fi, err)
	}
	// The packaged binary runs and knows its version.
	if out := strings.TrimSpace(run(t, bin, "--version")); out != "yui "+version {
		t.Fatalf("yui --version = %q, want %q", out, "yui "+version)
	}

	desktop := filepath.Join(root, "usr/share/applications/yui.desktop")
	if tool(t, "desktop-file-validate") != "" {
		if out := run(t, "desktop-file-validate", desktop); strings.TrimSpace(out) != "" {
			t.Fatalf("desktop-file-validate: %s", out)
		}
	}
	entry, _ := os.ReadFile(desktop)
	for _, want := range []string{"\nExec=yui\n", "\nIcon=yui\n", "\nExec=yui --settings\n", "\nExec=yui --quit\n"} {
		if !strings.Contains(string(entry), want) {
			t.Errorf("desktop entry lacks %q", strings.TrimSpace(want))
		}
	}
	// Every icon the entry's Icon=yui resolves to, each the size its
	// directory says, made from build/appicon.png.
	for _, n := range []int{16, 22, 24, 32, 48, 64, 128, 256, 512} {
		dir := strconv.Itoa(n) + "x" + strconv.Itoa(n)
		p := filepath.Join(root, "usr/share/icons/hicolor", dir, "apps/yui.png")
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(f)
		f.Close()
		if err != nil || cfg.Width != n || cfg.Height != n {
			t.Errorf("%s: %dx%d %v", p, cfg.Width, cfg.Height, err)
		}
		if sha(t, p) != sha(t, filepath.Join(repoRoot, "build/linux/icons/hicolor", dir, "apps/yui.png")) {
			t.Errorf("%s is not the icon make icons made", p)
		}
	}
	for _, p := range []string{"usr/share/man/man1/yui.1.gz", "usr/share/doc/yui/copyright", "usr/share/doc/yui/changelog.gz"} {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Error(err)
		}
	}
}

func TestDistDebIsLintianClean(t *testing.T) {
	deb := distEnv(t, "YUI_DEB")
	lintian := tool(t, "lintian")
	// Everything down to pedantic; the package's own overrides say why
	// each overridden tag does not apply.
	out, err := exec.Command(lintian, "--fail-on", "error,warning,info,pedantic", "-I", "-E", "--pedantic", deb).CombinedOutput()
	var tags []string
	for _, l := range strings.Split(string(out), "\n") {
		if regexp.MustCompile(`^[EWIPX]: `).MatchString(l) {
			tags = append(tags, l)
		}
	}
	if err != nil || len(tags) > 0 {
		t.Fatalf("lintian: %v\n%s", err, strings.Join(tags, "\n"))
	}
}

func TestDistInstallerContents(t *testing.T) {
	setup := distEnv(t, "YUI_SETUP")
	version := distEnv(t, "YUI_VERSION")
	winBin := distEnv(t, "YUI_WIN_BIN")
	webview2 := distEnv(t, "WEBVIEW2_SETUP")
	tool(t, "7zz")
	if filepath.Base(setup) != "Yui-"+version+"-setup.exe" {
		t.Fatalf("installer named %s for version %s", filepath.Base(setup), version)
	}
	list := run(t, "7zz", "l", setup)
	if !strings.Contains(list, "Type = Nsis") || !strings.Contains(list, "NSIS-3 Unicode") {
		t.Fatalf("not an NSIS 3 Unicode installer:\n%s", list)
	}
	// Name → size, from 7zz's table.
	files := map[string]string{}
	row := regexp.MustCompile(`^(?:\S+ \S+|\s+)\s+\S{5}\s+(\d*)\s+(?:\d+\s+)?(\S.*)$`)
	for _, l := range strings.Split(list, "\n") {
		if m := row.FindStringSubmatch(l); m != nil {
			files[m[2]] = m[1]
		}
	}
	size := func(p string) string {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return strconv.FormatInt(fi.Size(), 10)
	}
	want := map[string]string{
		"yui.exe":       size(winBin),
		"uninstall.exe": "", // written at install time
		"$PLUGINSDIR/webview2/MicrosoftEdgeWebview2Setup.exe": size(webview2),
		"$PLUGINSDIR/nsExec.dll":                              "?", // runs `yui --quit` before files are replaced
	}
	for name, sz := range want {
		got, ok := files[name]
		if !ok {
			t.Errorf("the installer lacks %s; it has %v", name, files)
			continue
		}
		if sz != "?" && got != sz {
			t.Errorf("%s is %s bytes in the installer, want %s", name, got, sz)
		}
	}
	// The exe inside is the one make windows built, byte for byte.
	dir := t.TempDir()
	run(t, "7zz", "x", "-o"+dir, setup, "yui.exe")
	if sha(t, filepath.Join(dir, "yui.exe")) != sha(t, winBin) {
		t.Fatal("the installer's yui.exe differs from build/bin/yui.exe")
	}
	// No administrator prompt: the installer's manifest asks for the
	// invoker's rights (RequestExecutionLevel user).
	run(t, "7zz", "x", "-tPE", "-o"+dir+"/pe", setup, ".rsrc/MANIFEST/1")
	man, err := os.ReadFile(filepath.Join(dir, "pe/.rsrc/MANIFEST/1"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(man, []byte(`level="asInvoker"`)) {
		t.Fatalf("installer manifest does not run as invoker:\n%s", man)
	}
}

func TestDistWindowsBinaryResources(t *testing.T) {
	winBin := distEnv(t, "YUI_WIN_BIN")
	version := distEnv(t, "YUI_VERSION")
	tool(t, "7zz")
	list := run(t, "7zz", "l", "-tPE", winBin)
	if !strings.Contains(list, "Subsystem = Windows GUI") {
		t.Errorf("yui.exe is not a GUI-subsystem program (-H windowsgui):\n%s", list)
	}
	if !strings.Contains(list, "ProductVersion: "+version) {
		t.Errorf("yui.exe's version resource lacks %s", version)
	}
	for _, r := range []string{".rsrc/MANIFEST/1", ".rsrc/GROUP_ICON/1", ".rsrc/version.txt"} {
		if !strings.Contains(list, r) {
			t.Errorf("yui.exe lacks the resource %s", r)
		}
	}
	dir := t.TempDir()
	run(t, "7zz", "x", "-tPE", "-o"+dir, winBin, ".rsrc/MANIFEST/1")
	man, _ := os.ReadFile(filepath.Join(dir, ".rsrc/MANIFEST/1"))
	for _, want := range []string{`level="asInvoker"`, "Microsoft.Windows.Common-Controls", "permonitorv2"} {
		if !bytes.Contains(man, []byte(want)) {
			t.Errorf("yui.exe's manifest lacks %s", want)
		}
	}
}
