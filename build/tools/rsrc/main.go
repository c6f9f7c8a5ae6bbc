// Command rsrc writes the Windows resource object the Go linker puts in
// yui.exe: the icon (build/windows/icon.ico), the application manifest
// (build/windows/yui.exe.manifest: common controls 6, per-monitor DPI
// awareness, asInvoker) and the version resource.
//
// Usage: go run ./rsrc -ico ICO -manifest XML -version 1.2.3+4.gabc -winversion 1.2.3.4 -out rsrc_windows_amd64.syso
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/tc-hib/winres"
	"github.com/tc-hib/winres/version"
)

func main() {
	ico := flag.String("ico", "", "icon file")
	manifest := flag.String("manifest", "", "application manifest (XML)")
	ver := flag.String("version", "", "the version string (git describe form)")
	winVer := flag.String("winversion", "", "the four-number version (a.b.c.d)")
	out := flag.String("out", "", "the .syso to write")
	flag.Parse()
	if err := run(*ico, *manifest, *ver, *winVer, *out); err != nil {
		fmt.Fprintln(os.Stderr, "rsrc:", err)
		os.Exit(1)
	}
}

func run(icoPath, manifestPath, ver, winVer, out string) error {
	rs := winres.ResourceSet{}
	f, err := os.Open(icoPath)
	if err != nil {
		return err
	}
	icon, err := winres.LoadICO(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", icoPath, err)
	}
	// ID 1 comes first, so Explorer and the shortcut use it.
	if err := rs.SetIcon(winres.ID(1), icon); err != nil {
		return err
	}
	xml, err := os.ReadFile(manifestPath)
	if err != nil {
		return err
	}
	if _, err := winres.AppManifestFromXML(xml); err != nil {
		return fmt.Errorf("%s: %w", manifestPath, err)
	}
	rs.Set(winres.RT_MANIFEST, winres.ID(1), winres.LCIDNeutral, xml)
	nums, err := fourNumbers(winVer)
	if err != nil {
		return err
	}
	vi := version.Info{FileVersion: nums, ProductVersion: nums}
	for k, v := range map[string]string{
		version.ProductName:      "Yui",
		version.FileDescription:  "Yui, a desktop pet for your AI agent",
		version.CompanyName:      "The Yui authors",
		version.LegalCopyright:   "MIT License, the Yui authors",
		version.OriginalFilename: "yui.exe",
		version.InternalName:     "yui",
		version.ProductVersion:   ver,
		version.FileVersion:      ver,
	} {
		if err := vi.Set(winres.LCIDNeutral, k, v); err != nil {
			return err
		}
	}
	rs.SetVersionInfo(vi)
	w, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := rs.WriteObject(w, winres.ArchAMD64); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

func fourNumbers(s string) ([4]uint16, error) {
	var v [4]uint16
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return v, fmt.Errorf("version %q: want four numbers", s)
	}
	for i, p := range parts {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil {
			return v, fmt.Errorf("version %q: %w", s, err)
		}
		v[i] = uint16(n)
	}
	return v, nil
}
