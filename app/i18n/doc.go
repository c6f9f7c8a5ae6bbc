// Package i18n names the languages Yui speaks and reads the system locale
// (docs/languages.md).
//
// Contracts:
//
//   - Supported lists the languages with a full catalogue, as BCP 47 tags:
//     en, ja, ko, zh-Hans. Parse accepts exactly these (and "" for "follow
//     the system") and refuses anything else.
//   - Match maps any locale name — a BCP 47 tag ("ja-JP", "zh-Hans-CN") or
//     a POSIX locale ("ko_KR.UTF-8", "zh_CN.GB18030@x") — to the supported
//     language golang.org/x/text/language's matcher finds for it; a locale
//     with no acceptable match ("C", "POSIX", "", "de_DE", "zh-TW") is
//     English.
//   - EnvLocale reads the POSIX variables in their precedence order:
//     LC_ALL, then LC_MESSAGES, then LANG; the first non-empty one wins.
//     SystemLocale is EnvLocale on Linux and other Unixes, and
//     GetUserDefaultLocaleName on Windows (locale_windows.go).
//   - Resolve is the language in force: the setting when set, else the
//     system locale's match. The UI language is Resolve(settings.language);
//     a character's spoken language is Resolve of her speech_language,
//     falling back to the UI language.
//   - CatalogueFile reads a language's catalogue file (<prefix><tag>.json)
//     from an embedded set, English's when the language has none.
//
// All functions are pure (SystemLocale reads the process environment or
// the OS) and safe for concurrent use.
package i18n
