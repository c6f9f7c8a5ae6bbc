// English: the reference catalogue. Every other language has exactly these
// keys (tsc checks the type, src/i18n.test.ts the files).
export const en = {
  'composer.placeholder': 'Say something…',
  'composer.message': 'Message',
  'composer.attach': 'Attach images',
  'composer.attach_tip': 'Attach images (or paste / drop them)',
  'composer.send': 'Send',
  'composer.stop': 'Stop',
  'pill.capture_tip': 'A screenshot goes with each message — click for the screen settings',
  'pill.capture_label': 'A screenshot goes with each message: open the screen settings',
  'bubble.close': 'Close the speech bubble',
  'plate.reconnect': 'Reconnect',
  'plate.reset': 'New thread',
  'plate.settings': 'Settings…',
} as const;

export type Key = keyof typeof en;
