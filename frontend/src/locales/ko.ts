import type { Key } from './en';

export const ko: Record<Key, string> = {
  'composer.placeholder': '말을 걸어 보세요…',
  'composer.message': '메시지',
  'composer.attach': '이미지 첨부',
  'composer.attach_tip': '이미지 첨부 (붙여넣기나 끌어다 놓기도 돼요)',
  'composer.send': '보내기',
  'composer.stop': '중지',
  'pill.capture_tip': '메시지마다 스크린샷이 함께 가요 — 클릭하면 화면 설정으로 가요',
  'pill.capture_label': '메시지마다 스크린샷이 함께 갑니다: 화면 설정 열기',
  'bubble.close': '말풍선 닫기',
  'plate.reconnect': '다시 연결',
  'plate.reset': '새 스레드',
  'plate.settings': '설정…',
};
