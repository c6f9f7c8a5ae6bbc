// Where the page runs: inside a Wails window (the shell binds
// window.go.shell.Bridge and the runtime), or in a plain browser loading the
// page from the core's view server (tests, development), with the connection
// settings in the query string.

export interface PageConfig { view_url: string; role: string; preset: string; /** The UI language the core handed the window (src/i18n.ts). */ lang?: string }
export interface Rect { x: number; y: number; w: number; h: number }

interface WailsWindow {
  go?: {
    shell?: {
      Bridge?: {
        Config(): Promise<PageConfig>;
        SetInputRegion(r: Rect[]): Promise<void>;
        Moved?(): Promise<void>;
        MoveWindow?(x: number, y: number): Promise<void>;
        OpenURL?(url: string): Promise<void>;
        StartupStep?(step: string, epochMs: number): Promise<void>;
      };
    };
  };
  runtime?: {
    WindowSetPosition(x: number, y: number): void;
    WindowSetAlwaysOnTop?(on: boolean): void;
    WindowGetPosition(): Promise<{ x: number; y: number }>;
    WindowHide?(): void;
  };
}

const w = window as unknown as WailsWindow;

export const inWails = (): boolean => !!w.go?.shell?.Bridge;

/** The page's start-up steps the shell logs (window_timing lines,
 * docs/performance.md): its view socket is open; it has applied the
 * core's first sticky state. */
export type StartupStep = 'view_socket' | 'first_state';

const stepsReported = new Set<StartupStep>();

/** Tells the shell the page reached `step` now; once per step and page.
 * Outside Wails (a browser) it does nothing. */
export function startupStep(step: StartupStep): void {
  if (stepsReported.has(step)) return;
  stepsReported.add(step);
  w.go?.shell?.Bridge?.StartupStep?.(step, Date.now());
}

/** The config a window's shell wrote into the page's head (a
 * `<meta name="yui-page">` holding PageConfig as JSON, app/shell/page.go),
 * so the page needs no round trip through the bindings; null when there is
 * none or it does not parse. */
export function inlineConfig(doc: Document = document): PageConfig | null {
  const raw = doc.querySelector('meta[name="yui-page"]')?.getAttribute('content');
  if (!raw) return null;
  try {
    const c = JSON.parse(raw) as PageConfig;
    return typeof c.view_url === 'string' && typeof c.role === 'string' ? c : null;
  } catch {
    return null;
  }
}

export async function pageConfig(loc: Location = window.location, doc: Document = document): Promise<PageConfig> {
  const inline = inlineConfig(doc);
  if (inline) return inline;
  if (w.go?.shell?.Bridge) return w.go.shell.Bridge.Config();
  const q = new URLSearchParams(loc.search);
  const scheme = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  const view = new URL(`${scheme}//${loc.host}/view`);
  view.searchParams.set('token', q.get('token') ?? '');
  view.searchParams.set('role', q.get('role') ?? 'pet');
  view.searchParams.set('preset', q.get('preset') ?? '');
  return { view_url: view.toString(), role: q.get('role') ?? 'pet', preset: q.get('preset') ?? '' };
}

/** Tells the shell which parts of the window take clicks (X11 input shape). */
export function setInputRegion(rects: Rect[]): void {
  w.go?.shell?.Bridge?.SetInputRegion(rects);
}

export async function windowPosition(): Promise<{ x: number; y: number } | null> {
  return w.runtime ? w.runtime.WindowGetPosition() : null;
}

/** Moves the window to (x, y) in absolute screen pixels, as
 * windowPosition reads them: through the shell (the runtime's
 * WindowSetPosition is relative to the window's monitor, which is wrong
 * on a second monitor); an older shell without MoveWindow: the runtime. */
export function moveWindow(x: number, y: number): void {
  const bridge = w.go?.shell?.Bridge;
  if (bridge?.MoveWindow) bridge.MoveWindow(Math.round(x), Math.round(y));
  else w.runtime?.WindowSetPosition(Math.round(x), Math.round(y));
}

/** Opens an http(s) link in the user's default browser. In a window the
 * shell checks the URL in Go (http/https only) before the OS sees it; the
 * Wails runtime's own BrowserOpenURL is refused by the window's guard. */
export function openExternal(url: string): void {
  const bridge = w.go?.shell?.Bridge;
  if (bridge) {
    bridge.OpenURL?.(url)?.catch((err: unknown) => console.warn('yui: link not opened:', err));
  } else {
    window.open(url, '_blank', 'noopener,noreferrer');
  }
}

/** Tells the shell a drag ended, so it reports the new place to the core at
 * once instead of at its next slow poll. */
export function windowMoved(): void {
  w.go?.shell?.Bridge?.Moved?.();
}

/** Keeps the settings window above the pets (which are always on top)
 * while it has the focus, and lets it go back below them when it loses
 * it (docs/desktop.md, "Where she is"). Outside Wails: nothing. */
export function keepAboveWhileFocused(win: Window = window): void {
  const set = (on: boolean) => w.runtime?.WindowSetAlwaysOnTop?.(on);
  win.addEventListener('focus', () => set(true));
  win.addEventListener('blur', () => set(false));
  if (win.document.hasFocus()) set(true);
}

/** Hides this window (the settings and message windows hide when closed;
 * the core shows them again). In a browser it does nothing. */
export function closeWindow(): void {
  w.runtime?.WindowHide?.();
}

/**
 * Esc and Ctrl+W close an ordinary window (settings, messages), as in
 * other desktop apps. Escape that something in the page used (a select's
 * list, a question being cancelled: `defaultPrevented`) or that `busy()`
 * claims does not close it.
 */
export function closeKeys(target: Document, close: () => void, busy: () => boolean = () => false): void {
  target.addEventListener('keydown', (e) => {
    if (e.isComposing) return;
    if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'w') {
      e.preventDefault();
      close();
    } else if (e.key === 'Escape' && !e.defaultPrevented && !busy()) {
      e.preventDefault();
      close();
    }
  });
}

/** A path on the core's view server with the page's token (a VRM look's
 * model, the look importer): the view URL's host and token, over http. */
export function viewPath(viewURL: string, path: string): string {
  const v = new URL(viewURL);
  const u = new URL(path, `${v.protocol === 'wss:' ? 'https:' : 'http:'}//${v.host}`);
  u.searchParams.set('token', v.searchParams.get('token') ?? '');
  return u.toString();
}
