import type { Key } from './en';

export const ja: Record<Key, string> = {
  'composer.placeholder': '話しかけてね…',
  'composer.message': 'メッセージ',
  'composer.attach': '画像を添付',
  'composer.attach_tip': '画像を添付（貼り付け・ドロップもできます）',
  'composer.send': '送信',
  'composer.stop': '停止',
  'pill.capture_tip': 'メッセージごとにスクリーンショットを送っています — クリックで画面の設定へ',
  'pill.capture_label': 'メッセージごとにスクリーンショットを送っています：画面の設定を開く',
  'bubble.close': '吹き出しを閉じる',
  'plate.reconnect': '再接続',
  'plate.reset': '新しいスレッド',
  'plate.settings': '設定…',
};
