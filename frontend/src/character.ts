// Yui's character: original art drawn as inline SVG. Idle is calm and
// cheap: nothing animates continuously; a single timer schedules a blink
// every few seconds. A blink is two repaints (eyes shut, eyes open) rather
// than a transition: measured under Xvfb, a 140 ms CSS transition per blink
// cost ~1.5 % of a core at idle, the two-frame blink a tenth of that. No
// requestAnimationFrame loop runs while the character is still.

const SVG = `
<svg class="yui-figure" viewBox="0 0 200 240" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="Yui">
  <ellipse cx="100" cy="233" rx="52" ry="6" fill="rgba(40,20,50,0.18)"/>
  <g class="hair-back">
    <path d="M30 96 C28 40 70 20 100 22 C130 20 172 40 170 96 L176 152 C164 160 150 154 146 142 L54 142 C50 154 36 160 24 152 Z" fill="#3f2d4a"/>
  </g>
  <g class="body">
    <rect x="80" y="206" width="16" height="22" rx="7" fill="#5b4a6b"/>
    <rect x="104" y="206" width="16" height="22" rx="7" fill="#5b4a6b"/>
    <path d="M62 158 C66 146 82 140 100 140 C118 140 134 146 138 158 L150 212 C130 220 70 220 50 212 Z" fill="#b9a4e8"/>
    <path d="M78 146 C86 156 114 156 122 146 L118 142 C110 148 90 148 82 142 Z" fill="#9d86d6"/>
    <path d="M97 160 L103 160 L102 190 L98 190 Z" fill="#9d86d6"/>
    <ellipse cx="56" cy="184" rx="10" ry="20" transform="rotate(14 56 184)" fill="#a892e0"/>
    <ellipse cx="144" cy="184" rx="10" ry="20" transform="rotate(-14 144 184)" fill="#a892e0"/>
    <circle cx="52" cy="202" r="8" fill="#ffe6d5"/>
    <circle cx="148" cy="202" r="8" fill="#ffe6d5"/>
  </g>
  <g class="head">
    <circle cx="100" cy="96" r="64" fill="#ffe6d5"/>
    <ellipse class="blush" cx="64" cy="120" rx="11" ry="6" fill="#ff9fb0" opacity="0.55"/>
    <ellipse class="blush" cx="136" cy="120" rx="11" ry="6" fill="#ff9fb0" opacity="0.55"/>
    <g class="eye eye-left">
      <ellipse cx="76" cy="104" rx="9" ry="12.5" fill="#2d2238"/>
      <circle cx="73" cy="99" r="3.6" fill="#fff"/>
      <circle cx="79" cy="109" r="1.6" fill="#fff"/>
    </g>
    <g class="eye eye-right">
      <ellipse cx="124" cy="104" rx="9" ry="12.5" fill="#2d2238"/>
      <circle cx="121" cy="99" r="3.6" fill="#fff"/>
      <circle cx="127" cy="109" r="1.6" fill="#fff"/>
    </g>
    <path class="mouth" d="M93 127 Q100 133 107 127" stroke="#8a3c52" stroke-width="3" fill="none" stroke-linecap="round"/>
    <path class="bangs" d="M34 100 C30 40 70 24 100 25 C130 24 170 40 166 100 L158 82 L150 94 L141 70 L129 88 L117 64 L105 84 L93 62 L81 86 L69 68 L58 94 L47 78 Z" fill="#4a3457"/>
    <path class="ahoge" d="M100 26 C96 10 108 4 116 8" stroke="#4a3457" stroke-width="5" fill="none" stroke-linecap="round"/>
    <g class="clip" transform="translate(146 56) rotate(18)">
      <path d="M0 -9 L2.6 -2.8 L9 -2.8 L3.8 1.2 L5.6 7.6 L0 3.8 L-5.6 7.6 L-3.8 1.2 L-9 -2.8 L-2.6 -2.8 Z" fill="#ffd166" stroke="#e8a93a" stroke-width="1"/>
    </g>
  </g>
</svg>`;

export interface Scheduler {
  setTimeout(fn: () => void, ms: number): number;
  clearTimeout(id: number): void;
  random(): number;
}

const realScheduler: Scheduler = {
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (id) => window.clearTimeout(id),
  random: Math.random,
};

/** Blink timing: one blink every 3–7 s, each lasting BLINK_MS. */
export const BLINK_MIN_MS = 3000;
export const BLINK_SPREAD_MS = 4000;
export const BLINK_MS = 140;

export class Character {
  readonly el: HTMLElement;
  private blinkTimer = 0;

  constructor(private readonly sched: Scheduler = realScheduler) {
    this.el = document.createElement('div');
    this.el.className = 'character';
    this.el.dataset.emotion = 'neutral';
    this.el.dataset.motion = 'idle';
    this.el.innerHTML = SVG;
  }

  /** Starts the idle blink schedule. */
  start(): void {
    this.scheduleBlink();
  }

  stop(): void {
    this.sched.clearTimeout(this.blinkTimer);
    this.blinkTimer = 0;
  }

  /** True while a timer is armed: the only recurring work while idle. */
  get pendingTimers(): number {
    return this.blinkTimer ? 1 : 0;
  }

  private scheduleBlink(): void {
    const wait = BLINK_MIN_MS + this.sched.random() * BLINK_SPREAD_MS;
    this.blinkTimer = this.sched.setTimeout(() => {
      this.el.classList.add('blink');
      this.blinkTimer = this.sched.setTimeout(() => {
        this.el.classList.remove('blink');
        this.scheduleBlink();
      }, BLINK_MS);
    }, wait);
  }
}
