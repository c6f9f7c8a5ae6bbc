// The phrases the core publishes (app/phrase): a plate, a connection
// status, a cause, a test's answer come with a key of this page's
// catalogues and its values beside the English text; the page shows them
// in its language. CORE_KEYS lists every key the core may send
// (app/phrase's phrase_test.go keeps it equal to the core's list and the
// English to en.ts); a key not listed (an older or newer core) shows the
// core's English.

import { language, t, type Key, type Lang } from './i18n';
import type { Phrase } from './protocol';

export const CORE_KEYS: readonly Key[] = [
  'core.cause.key',
  'core.cause.key_http',
  'core.cause.lookup',
  'core.cause.no_host',
  'core.cause.not_agents_other',
  'core.cause.not_agents_page',
  'core.cause.not_api_other',
  'core.cause.not_api_page',
  'core.cause.not_models_other',
  'core.cause.not_models_page',
  'core.cause.not_push',
  'core.cause.other',
  'core.cause.refused',
  'core.cause.server_error',
  'core.cause.timeout',
  'core.cause.tls',
  'core.cause.tls_expired',
  'core.cause.tls_invalid',
  'core.cause.tls_name',
  'core.cause.tls_plain',
  'core.cause.tls_untrusted',
  'core.cause.unreachable',
  'core.note.key_removed',
  'core.note.mind_off',
  'core.note.mind_off_unnamed',
  'core.note.no_input_server',
  'core.note.no_microphone',
  'core.note.no_sound_flag',
  'core.note.no_sound_server',
  'core.note.screen_reset',
  'core.notice.delegations_bad',
  'core.notice.first_run',
  'core.notice.history_unopened',
  'core.notice.login_failed',
  'core.notice.look_fallback',
  'core.notice.mute_failed',
  'core.notice.permission_save',
  'core.notice.settings_bad',
  'core.notice.transcript_bad',
  'core.plate.agent_unknown',
  'core.plate.cant_connect',
  'core.plate.connecting',
  'core.plate.key_refused',
  'core.plate.not_configured',
  'core.plate.not_connected',
  'core.plate.not_in_version',
  'core.plate.not_push_every',
  'core.plate.not_push_in',
  'core.plate.not_push_now',
  'core.plate.reconnecting_in',
  'core.plate.reconnecting_now',
  'core.plate.thinking',
  'core.plate.thread_deleted',
  'core.plate.wrong_key',
  'core.status.connected',
  'core.status.connecting',
  'core.status.reconnecting',
  'core.test.agent_found',
  'core.test.agent_found_as',
  'core.test.agent_missing',
  'core.test.agent_missing_as',
  'core.test.agents_failed',
  'core.test.agents_failed_as',
  'core.test.agents_listed',
  'core.test.agents_listed_as',
  'core.test.agents_listed_one',
  'core.test.agents_listed_one_as',
  'core.test.bad_thread',
  'core.test.bad_thread_as',
  'core.test.bad_url',
  'core.test.cannot_reach',
  'core.test.key_refused',
  'core.test.key_refused_push',
  'core.test.models',
  'core.test.models_one',
  'core.test.new_thread_on_save',
  'core.test.no_base_url',
  'core.test.no_models',
  'core.test.no_runtime_url',
  'core.test.push_ready',
  'core.test.runtime_answered',
  'core.test.server_answered',
  'core.test.thread_deleted',
  'core.test.thread_deleted_as',
  'core.test.thread_other_agent',
  'core.test.thread_there',
  'core.test.thread_unreadable',
  'core.test.thread_unreadable_as',
  'core.test.unsupported',
];

const known = new Set<string>(CORE_KEYS);

/** What goes between two sentences: Japanese and Chinese end a sentence
 * with a full-width stop and no space. */
const SENTENCE_SEP: Record<Lang, string> = { en: ' ', ja: '', ko: ' ', 'zh-Hans': '' };

/** The phrase in the page's language, or the core's English text when
 * there is none or its key is not one the core sends. */
export function phrase(p: Phrase | null | undefined, english: string): string {
  if (!p || !known.has(p.key)) return english;
  return t(p.key as Key, p.vars ?? {});
}

/** Sentences (a test's answer) in the page's language, joined as the
 * language writes them; the core's English when any is not known. */
export function phrases(ps: Phrase[] | null | undefined, english: string): string {
  if (!ps || ps.length === 0 || ps.some((p) => !known.has(p.key))) return english;
  return ps.map((p) => t(p.key as Key, p.vars ?? {})).join(SENTENCE_SEP[language()]);
}
