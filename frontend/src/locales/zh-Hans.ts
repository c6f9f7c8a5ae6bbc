import type { Key } from './en';

export const zhHans: Record<Key, string> = {
  'composer.placeholder': '说点什么吧…',
  'composer.message': '消息',
  'composer.attach': '附加图片',
  'composer.attach_tip': '附加图片（也可以粘贴或拖放）',
  'composer.send': '发送',
  'composer.stop': '停止',
  'pill.capture_tip': '每条消息都会附带一张截图 — 点击打开屏幕设置',
  'pill.capture_label': '每条消息都会附带一张截图：打开屏幕设置',
  'bubble.close': '关闭对话气泡',
  'plate.reconnect': '重新连接',
  'plate.reset': '新对话',
  'plate.settings': '设置…',
};
