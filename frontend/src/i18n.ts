// The pages' strings in the UI language (docs/languages.md): one catalogue
// per language in src/locales, a typed t(), and dates and times through
// Intl in the same locale. The language is the one the core hands the
// window (settings.language in force, PageConfig.lang) or the page's ?lang=
// when given, else the first of the webview's
// navigator.languages that matches (WebKitGTK and WebView2 take it from
// the system locale); English when none does.

import { en, type Key } from './locales/en';
import { ja } from './locales/ja';
import { ko } from './locales/ko';
import { zhHans } from './locales/zh-Hans';

export type Lang = 'en' | 'ja' | 'ko' | 'zh-Hans';
export type { Key };

export const catalogues: Record<Lang, Record<Key, string>> = { en, ja, ko, 'zh-Hans': zhHans };

let current: Lang = 'en';

/** Maps a BCP 47 tag to a supported language: ja*, ko*, Simplified
 * Chinese (zh, zh-CN, zh-SG, zh-Hans-*), English otherwise (zh-TW and
 * zh-Hant included: no Traditional catalogue yet). */
export function matchLanguage(tag: string): Lang | null {
  let loc: Intl.Locale;
  try {
    loc = new Intl.Locale(tag.replace('_', '-')).maximize();
  } catch {
    return null;
  }
  switch (loc.language) {
    case 'en':
      return 'en';
    case 'ja':
      return 'ja';
    case 'ko':
      return 'ko';
    case 'zh':
      return loc.script === 'Hans' ? 'zh-Hans' : null;
  }
  return null;
}

/** The language for a page: the explicit one (?lang=) when supported, else
 * the first preferred language that matches, else English. */
export function pickLanguage(explicit: string | null, preferred: readonly string[]): Lang {
  if (explicit && explicit in catalogues) return explicit as Lang;
  for (const p of preferred) {
    const m = matchLanguage(p);
    if (m) return m;
  }
  return 'en';
}

/** Sets the page's language and its root's lang attribute (the CSS's
 * :lang rules and the CJK font choice follow it). */
export function setLanguage(lang: Lang, root: HTMLElement | null = globalThis.document?.documentElement ?? null): void {
  current = lang;
  if (root) root.lang = lang;
}

export function language(): Lang {
  return current;
}

/** The string for key in the page's language; {name} placeholders are
 * filled from vars. */
export function t(key: Key, vars: Record<string, string> = {}): string {
  const s = catalogues[current][key] ?? en[key];
  return s.replace(/\{(\w+)\}/g, (m, name: string) => vars[name] ?? m);
}

/** A count in words: the `one` key for a count the language's plural
 * rules (Intl.PluralRules) call one, else `other`; {n} is the count in the
 * page's locale. Japanese, Korean and Chinese have one form, so their two
 * strings are the same. */
export function plural(n: number, one: Key, other: Key, vars: Record<string, string> = {}): string {
  const form = new Intl.PluralRules(current).select(n);
  return t(form === 'one' ? one : other, { ...vars, n: new Intl.NumberFormat(current).format(n) });
}

/** A time of day in the page's locale ("15:04", "오후 3:04", "下午3:04"). */
export function formatTime(d: Date): string {
  return new Intl.DateTimeFormat(current, { hour: 'numeric', minute: '2-digit' }).format(d);
}

/** A date and time in the page's locale. */
export function formatDateTime(d: Date): string {
  return new Intl.DateTimeFormat(current, { dateStyle: 'medium', timeStyle: 'short' }).format(d);
}

/** Picks the page's language at start: the one the core handed the window
 * (PageConfig.lang), else the page URL's ?lang= (a browser), else the
 * webview's languages. */
export function initLanguage(fromCore: string | null, loc: Location = globalThis.location, nav: Navigator = globalThis.navigator): Lang {
  const lang = pickLanguage(fromCore || new URLSearchParams(loc?.search ?? '').get('lang'), nav?.languages ?? []);
  setLanguage(lang);
  return lang;
}
