import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseMarkdown } from '../../cards/markdown-parse';
import { Markdown } from './markdown';
import { expectInert, HOSTILE_STRINGS } from './test-support';

// The real parser, watched: a growing reply must re-parse only its last stretch.
vi.mock('../../cards/markdown-parse', { spy: true });

afterEach(cleanup);
// happy-dom would follow a clicked link (a real fetch); the page's navigation is not what these tests check.
const stopNavigation = (event: Event) => event.preventDefault();
beforeAll(() => document.addEventListener('click', stopNavigation));
afterAll(() => document.removeEventListener('click', stopNavigation));

function renderMarkdown(text: string, linkTarget: '_self' | '_blank' = '_blank') {
  const onLinkClick = vi.fn();
  const { container } = render(<Markdown text={text} linkTarget={linkTarget} onLinkClick={onLinkClick} />);
  return { root: container.querySelector('.md')!, onLinkClick };
}

describe('<Markdown>', () => {
  it('parses again only the stretch after the last blank line when a streaming reply grows', () => {
    const onLinkClick = vi.fn();
    const view = render(<Markdown text={'First **part**'} linkTarget="_self" onLinkClick={onLinkClick} />);
    const first = view.container.querySelector('.md p');
    vi.mocked(parseMarkdown).mockClear();
    view.rerender(
      <Markdown text={'First **part**\n\n- one\n- tw'} linkTarget="_self" onLinkClick={onLinkClick} />,
    );
    view.rerender(
      <Markdown text={'First **part**\n\n- one\n- two'} linkTarget="_self" onLinkClick={onLinkClick} />,
    );
    expect(vi.mocked(parseMarkdown).mock.calls).toEqual([['- one\n- tw'], ['- one\n- two']]);
    expect(view.container.querySelector('.md')?.innerHTML).toBe(
      '<p>First <strong>part</strong></p><ul><li>one</li><li>two</li></ul>',
    );
    expect(view.container.querySelector('.md p')).toBe(first);
    // Another link target changes every link: everything is rendered again.
    view.rerender(
      <Markdown text={'First **part**\n\n- one\n- two'} linkTarget="_blank" onLinkClick={onLinkClick} />,
    );
    expect(vi.mocked(parseMarkdown).mock.calls).toHaveLength(4);
  });

  it('renders every construct as its element', () => {
    const { root } = renderMarkdown(
      '## Title\nHi **strong** __strong2__ *em* _em2_ `code`\nnext line\n\n- a\n- b\n  1. b1\n\n3. three\n\n[link](https://shop.example/a) https://shop.example/b',
    );
    expect(root.innerHTML).toBe(
      [
        '<p><strong>Title</strong></p>',
        '<p>Hi <strong>strong</strong> <strong>strong2</strong> <em>em</em> <em>em2</em> <code>code</code><br>next line</p>',
        '<ul><li>a</li><li>b<ol><li>b1</li></ol></li></ul>',
        '<ol start="3"><li>three</li></ol>',
        '<p><a href="https://shop.example/a" target="_blank" rel="noopener noreferrer">link</a> ',
        '<a href="https://shop.example/b" target="_blank" rel="noopener noreferrer">https://shop.example/b</a></p>',
      ].join(''),
    );
  });

  it('opens links in the same tab without rel when the target is _self', () => {
    renderMarkdown('[shop](https://shop.example/)', '_self');
    const a = screen.getByRole('link', { name: 'shop' });
    expect(a.getAttribute('target')).toBe('_self');
    expect(a.hasAttribute('rel')).toBe(false);
  });

  it('reports a click with the checked URL', () => {
    const { onLinkClick } = renderMarkdown('See [returns](HTTPS://Shop.Example/returns).');
    fireEvent.click(screen.getByRole('link', { name: 'returns' }));
    expect(onLinkClick).toHaveBeenCalledExactlyOnceWith('https://shop.example/returns');
  });

  it('links mailto: and tel: addresses', () => {
    renderMarkdown('[mail](mailto:help@shop.example) [call](tel:+4930123)');
    expect(screen.getByRole('link', { name: 'mail' }).getAttribute('href')).toBe('mailto:help@shop.example');
    expect(screen.getByRole('link', { name: 'call' }).getAttribute('href')).toBe('tel:+4930123');
  });

  it('shows an image as a link labelled with its alt text, never as an image', () => {
    const { root } = renderMarkdown('![Trail shoe](https://cdn.example/shoe.png)');
    expect(root.querySelector('img')).toBeNull();
    expect(screen.getByRole('link', { name: 'Trail shoe' }).getAttribute('href')).toBe(
      'https://cdn.example/shoe.png',
    );
  });

  it('labels a link without text with its URL', () => {
    renderMarkdown('[](https://shop.example/x)');
    expect(screen.getByRole('link', { name: 'https://shop.example/x' })).toBeTruthy();
  });

  // A destination ends at the first `)`, so these call alert without parentheses.
  it.each([
    'javascript:alert`1`',
    'JaVaScRiPt:alert`1`',
    '%20javascript:alert`1`',
    'java%09script:alert`1`',
    '&#106;avascript:alert`1`',
    '&#x6A;avascript&colon;alert`1`',
    'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
    'vbscript:x',
    '/relative',
  ])('renders a link to %j as its text only', (url) => {
    const { root, onLinkClick } = renderMarkdown(`Click [here](${url}) or ![pic](${url})`);
    expect(root.querySelector('a')).toBeNull();
    expect(root.textContent).toBe('Click here or pic');
    fireEvent.click(screen.getByText('here'));
    expect(onLinkClick).not.toHaveBeenCalled();
    expectInert(root);
  });

  it('renders a javascript: URL written with a tab or a leading space as text', () => {
    // In a destination, whitespace ends the URL, so these never even reach the URL check whole.
    const { root } = renderMarkdown('[a](java\tscript:alert(1)) [b]( JaVaScRiPt:alert(1))');
    expect(root.querySelector('a')).toBeNull();
    expect(root.textContent).toContain('a');
  });

  it.each(HOSTILE_STRINGS)('shows %j as plain text', (hostile) => {
    const { root } = renderMarkdown(`**Note:** ${hostile}\n- ${hostile}`);
    expect(root.textContent).toBe(`Note: ${hostile}${hostile}`);
    expectInert(root);
  });

  it('re-renders a streaming reply as it grows, from half-open markup to its final form', () => {
    const onLinkClick = vi.fn();
    const { container, rerender } = render(
      <Markdown text="Try **Trail" linkTarget="_self" onLinkClick={onLinkClick} />,
    );
    expect(container.textContent).toBe('Try **Trail');
    rerender(
      <Markdown
        text="Try **Trail Runner** [here](https://shop"
        linkTarget="_self"
        onLinkClick={onLinkClick}
      />,
    );
    expect(container.querySelector('strong')?.textContent).toBe('Trail Runner');
    expect(container.textContent).toBe('Try Trail Runner [here](https://shop');
    rerender(
      <Markdown
        text="Try **Trail Runner** [here](https://shop.example/)"
        linkTarget="_self"
        onLinkClick={onLinkClick}
      />,
    );
    expect(screen.getByRole('link', { name: 'here' })).toBeTruthy();
  });
});
