//go:build windows

package i18n

import (
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

var procGetUserDefaultLocaleName = windows.NewLazySystemDLL("kernel32.dll").NewProc("GetUserDefaultLocaleName")

// localeNameMaxLength is LOCALE_NAME_MAX_LENGTH (winnls.h).
const localeNameMaxLength = 85

// SystemLocale is the user's locale name from GetUserDefaultLocaleName
// ("ja-JP"); when the call fails, the POSIX variables (an MSYS shell sets
// LANG).
func SystemLocale() string {
	var buf [localeNameMaxLength]uint16
	n, _, _ := procGetUserDefaultLocaleName.Call(uintptr(unsafe.Pointer(&buf[0])), uintptr(len(buf)))
	if n == 0 {
		return EnvLocale(os.Getenv)
	}
	return windows.UTF16ToString(buf[:])
}
