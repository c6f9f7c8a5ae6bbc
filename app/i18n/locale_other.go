//go:build !windows

package i18n

import "os"

// SystemLocale is the user's locale name: the POSIX variables (EnvLocale).
func SystemLocale() string { return EnvLocale(os.Getenv) }
