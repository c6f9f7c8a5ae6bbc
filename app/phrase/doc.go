// Package phrase holds the texts the core publishes for a page to word in
// the page's language (docs/languages.md, "What the core publishes"): a
// Phrase is a key of the pages' catalogues (frontend/src/locales, the keys
// listed in frontend/src/corephrases.ts) with its {name} values. The core
// sends it beside the English text; the page shows t(key, vars), the
// console, the logs and the tests read the English (English renders it
// from this package's copy of those catalogue entries, which a test keeps
// equal to frontend/src/locales/en.ts).
package phrase
