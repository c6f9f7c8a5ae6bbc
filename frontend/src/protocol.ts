// The view protocol's messages as the page sees them. docs/view-protocol.md
// is the reference; app/view/protocol.go is the Go side.

export interface PresetInfo { type: 'preset'; id: string; name: string; look: string }
export interface Plate { type: 'plate'; kind: '' | 'connection' | 'thinking'; text: string; action?: string }
export interface Composer { type: 'composer'; locked: boolean }
export interface ErrorLine { type: 'error_line'; text: string; where: 'composer' | 'pill' }
export interface Notice { type: 'notice'; id: string; text: string }

export type CoreMessage = PresetInfo | Plate | Composer | ErrorLine | Notice;

export type PageMessage =
  | { type: 'send_text'; text: string }
  | { type: 'stop' }
  | { type: 'reconnect' }
  | { type: 'dismiss'; id: string };

const known = new Set(['preset', 'plate', 'composer', 'error_line', 'notice']);

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
