import { buildStylesheet, contrastText, hexToRgb } from './instance-stylesheet';

describe('instance stylesheet', () => {
  it('derives rgb triplets and a readable text colour', () => {
    expect(hexToRgb('228be6')).toEqual([34, 139, 230]);
    expect(hexToRgb('000000')).toEqual([0, 0, 0]);
    expect(contrastText('ffffff')).toBe('#000000');
    expect(contrastText('fab005')).toBe('#000000');
    expect(contrastText('1a1b1e')).toBe('#ffffff');
  });

  it('puts the variables first, the custom CSS after, and changes the ETag with the content', () => {
    const a = buildStylesheet({ color: '228be6', accent: '7950f2', customCss: '.x { color: red }' });
    expect(a.css).toMatch(/^:root \{\n {2}--instance-color: #228be6;\n {2}--instance-color-rgb: 34, 139, 230;/);
    expect(a.css).toContain('--instance-accent: #7950f2;');
    expect(a.css.indexOf('}')).toBeLessThan(a.css.indexOf('.x { color: red }'));
    expect(a.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(buildStylesheet({ color: '228be6', accent: '7950f2', customCss: '.x { color: red }' }).etag).toBe(a.etag);
    expect(buildStylesheet({ color: '228be7', accent: '7950f2', customCss: '.x { color: red }' }).etag).not.toBe(a.etag);
  });
});
