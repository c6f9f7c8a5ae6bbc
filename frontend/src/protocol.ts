// The view protocol's messages as the page sees them. docs/view-protocol.md
// is the reference; app/view/protocol.go is the Go side.

export interface PresetInfo { type: 'preset'; id: string; name: string; look: string }
export interface Plate { type: 'plate'; kind: '' | 'connection' | 'thinking'; text: string; action?: string }
export interface Composer { type: 'composer'; locked: boolean }
export interface ErrorLine { type: 'error_line'; text: string; where: 'composer' | 'pill' }
export interface Notice { type: 'notice'; id: string; text: string }
export interface CharacterState { type: 'character'; emotion: string; motion: string; speaking: boolean }
export interface Bubble {
  type: 'bubble';
  seq: number;
  turn_id: string;
  kind: 'speech' | 'filler' | 'failure' | string;
  text: string;
  speaking: boolean;
  muted: boolean;
}
export interface PillTool { tool_id: string; state: 'running' | 'done' | 'failed' | string; label: string; phrase?: string }
export interface Pill { type: 'pill'; tool: PillTool | null; error: string; capture?: boolean }
export interface PermissionPrompt { type: 'permission'; id: number; backend: string; monitor: number; label: string; text: string }
export interface Reasoning { type: 'reasoning'; turn_id: string; text: string; streaming: boolean }
export interface Usage { type: 'usage'; total_tokens: number; context_window: number }
export interface DelegationItem {
  id: string;
  title: string;
  started_at: number; // epoch ms
  state: 'running' | 'done' | string;
  ended_at?: number;
  status?: string;
  summary?: string;
}
export interface Delegations { type: 'delegations'; items: DelegationItem[] | null }

export type CoreMessage =
  | PresetInfo | Plate | Composer | ErrorLine | Notice
  | CharacterState | Bubble | Pill | Reasoning | Usage | Delegations | PermissionPrompt;

export type PageMessage =
  | { type: 'send_text'; text: string; images?: string[] }
  | { type: 'stop' }
  | { type: 'reconnect' }
  | { type: 'dismiss'; id: string }
  | { type: 'reset' }
  | { type: 'permission_answer'; id: number; answer: 'once' | 'always' | 'deny' };

const known = new Set([
  'preset', 'plate', 'composer', 'error_line', 'notice',
  'character', 'bubble', 'pill', 'reasoning', 'usage', 'delegations', 'permission',
]);

/** Parses one frame from the core; returns null for anything unusable. */
export function parseCoreMessage(data: unknown): CoreMessage | null {
  if (typeof data !== 'string') return null;
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof v !== 'object' || v === null) return null;
  const t = (v as { type?: unknown }).type;
  if (typeof t !== 'string' || !known.has(t)) return null;
  return v as CoreMessage;
}
