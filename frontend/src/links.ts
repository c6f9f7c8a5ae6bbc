// Bubble text with markdown links: `[label](https://…)` becomes a link
// that opens in the default browser; any other scheme shows only the label.
// Everything is built as DOM nodes — untrusted text never meets innerHTML.
import { el } from './dom';

const LINK = /\[([^\[\]\n]+)\]\(((?:[^()\s]|\([^()\s]*\))+)\)/g;

/** The URL if it is http(s), else null. */
export function safeURL(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return null;
  }
  return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
}

export function renderRichText(text: string, open: (url: string) => void): DocumentFragment {
  const frag = document.createDocumentFragment();
  let last = 0;
  for (const m of text.matchAll(LINK)) {
    const at = m.index ?? 0;
    if (at > last) frag.append(text.slice(last, at));
    const label = m[1]!;
    const url = safeURL(m[2]!);
    if (url) {
      const a = el('a');
      a.href = url;
      a.textContent = label;
      a.rel = 'noopener noreferrer';
      a.target = '_blank';
      a.title = url;
      a.addEventListener('click', (e) => {
        e.preventDefault();
        open(url);
      });
      frag.append(a);
    } else {
      frag.append(label);
    }
    last = at + m[0].length;
  }
  if (last < text.length) frag.append(text.slice(last));
  return frag;
}
