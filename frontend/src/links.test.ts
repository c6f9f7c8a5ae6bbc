import { describe, expect, it } from 'vitest';
import { renderRichText, safeURL } from './links';

function render(text: string) {
  const opened: string[] = [];
  const div = document.createElement('div');
  div.append(renderRichText(text, (u) => opened.push(u)));
  return { div, opened };
}

describe('renderRichText', () => {
  it('renders http(s) markdown links as links that open through the host', () => {
    const { div, opened } = render('See [the docs](https://example.com/a?b=1) and [home](http://example.org).');
    const links = div.querySelectorAll('a');
    expect(links).toHaveLength(2);
    expect(links[0]!.textContent).toBe('the docs');
    expect(links[0]!.getAttribute('href')).toBe('https://example.com/a?b=1');
    expect(div.textContent).toBe('See the docs and home.');
    const ev = new MouseEvent('click', { bubbles: true, cancelable: true });
    links[0]!.dispatchEvent(ev);
    expect(ev.defaultPrevented).toBe(true);
    expect(opened).toEqual(['https://example.com/a?b=1']);
  });

  it('never links other schemes: only the label is shown', () => {
    for (const url of ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,hi', 'file:///etc/passwd', 'vbscript:x', '/relative', 'example.com']) {
      const { div } = render(`click [me](${url}) now`);
      expect(div.querySelector('a')).toBeNull();
      expect(div.textContent).toBe('click me now');
    }
  });

  it('builds text nodes, never markup, from untrusted text', () => {
    const { div } = render('<img src=x onerror=alert(1)> [<b>x</b>](https://e.com/"><script>)');
    expect(div.querySelector('img')).toBeNull();
    expect(div.querySelector('b')).toBeNull();
    expect(div.querySelector('script')).toBeNull();
    expect(div.textContent).toContain('<img src=x onerror=alert(1)>');
    const a = div.querySelector('a');
    expect(a?.textContent).toBe('<b>x</b>');
  });

  it('leaves text without links alone', () => {
    expect(render('no [link] here (really)').div.textContent).toBe('no [link] here (really)');
  });

  it('safeURL accepts only http and https', () => {
    expect(safeURL('https://a.b/')).toBe('https://a.b/');
    expect(safeURL('javascript:void(0)')).toBeNull();
    expect(safeURL('not a url')).toBeNull();
  });
});

describe('renderRichText with parentheses in URLs', () => {
  it('keeps one level of balanced parentheses in a link', () => {
    const { div } = render('[Yui](https://en.wikipedia.org/wiki/Yui_(name)) is a name');
    expect(div.querySelector('a')!.getAttribute('href')).toBe('https://en.wikipedia.org/wiki/Yui_(name)');
    expect(div.textContent).toBe('Yui is a name');
  });
});
