// Nothing dropped on a Yui window may act by itself. WebKit (and any
// browser) loads a dropped link or file as the page when the page does not
// cancel the drop: a link dragged from a browser onto the character would
// take the window over (docs/security.md, "Windows and pages"). So every
// page installs this guard first: it cancels every dragenter, dragover and
// drop at the window, in the capture phase, before any other handler runs.
//
// What the page takes, it takes explicitly: the pet page's own handlers
// (bubbling, after this) take image files into the composer, and this
// guard puts dropped plain text (a dragged link's text is its URL) into the
// editable text field it is dropped on. Nothing else happens.

/** The text fields a drop may put text into. */
const TEXT_INPUTS = new Set(['text', 'search', 'url', 'tel', 'password']);

function textField(t: EventTarget | null): HTMLInputElement | HTMLTextAreaElement | null {
  if (t instanceof HTMLTextAreaElement) return t.readOnly || t.disabled ? null : t;
  if (t instanceof HTMLInputElement) return t.readOnly || t.disabled || !TEXT_INPUTS.has(t.type) ? null : t;
  return null;
}

function hasFiles(dt: DataTransfer | null): boolean {
  return !!dt && [...dt.types].includes('Files');
}

/** Whether the drag carries plain text and no files (during dragover the
 * data itself cannot be read yet, only its types). */
function carriesText(dt: DataTransfer | null): boolean {
  return !!dt && !hasFiles(dt) && [...dt.types].includes('text/plain');
}

function droppedText(dt: DataTransfer | null): string {
  return dt && carriesText(dt) ? dt.getData('text/plain') : '';
}

/** Puts text into a field at its selection, as typing would (an input
 * event follows, so the page sees the edit). */
export function insertText(f: HTMLInputElement | HTMLTextAreaElement, text: string): void {
  const one = f instanceof HTMLInputElement ? text.replace(/[\r\n]+/g, ' ') : text;
  const start = f.selectionStart ?? f.value.length;
  const end = f.selectionEnd ?? start;
  f.setRangeText(one, start, end, 'end');
  f.dispatchEvent(new Event('input', { bubbles: true }));
  f.focus();
}

/** Installs the guard on a window (see the file comment). Call it before
 * anything else the page does. */
export function guardDrops(w: Window = window): void {
  const over = (e: DragEvent) => {
    e.preventDefault();
    if (!e.dataTransfer) return;
    // "none" unless something here can take it; the pet page's own
    // dragover handler (after this one) says "copy" for image files.
    e.dataTransfer.dropEffect = textField(e.target) && carriesText(e.dataTransfer) ? 'copy' : 'none';
  };
  w.addEventListener('dragenter', over, true);
  w.addEventListener('dragover', over, true);
  w.addEventListener(
    'drop',
    (e: DragEvent) => {
      e.preventDefault();
      const f = textField(e.target);
      const text = droppedText(e.dataTransfer);
      if (f && text !== '') insertText(f, text);
    },
    true,
  );
}
