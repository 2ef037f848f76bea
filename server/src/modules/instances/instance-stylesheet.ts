import { createHash } from 'node:crypto';
import { customCssProblems } from './custom-css.rule';

export interface InstanceStyleSource {
  color: string;
  accent: string;
  customCss: string;
  logoUrl?: string | null;
}

/** '228be6' → [34, 139, 230]; the colour is stored validated (6 lower-case hex digits). */
export function hexToRgb(hex: string): [number, number, number] {
  const n = parseInt(hex, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Black or white, whichever reads better on the colour (WCAG relative luminance). */
export function contrastText(hex: string): '#000000' | '#ffffff' {
  const [r, g, b] = hexToRgb(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  return luminance > 0.179 ? '#000000' : '#ffffff';
}

const variables = (name: string, hex: string): string[] => [
  `  --instance-${name}: #${hex};`,
  `  --instance-${name}-rgb: ${hexToRgb(hex).join(', ')};`,
  `  --instance-${name}-contrast: ${contrastText(hex)};`,
];

/**
 * The instance's stylesheet: CSS custom properties from its colours, then its own CSS, which is checked
 * again as it is served: CSS stored before a rule was tightened (or written to the database by hand) is
 * left out whole rather than served against today's rules.
 */
export function buildStylesheet(instance: InstanceStyleSource): { css: string; etag: string } {
  const root = [':root {', ...variables('color', instance.color), ...variables('accent', instance.accent), '}'].join('\n');
  const custom = instance.customCss && customCssProblems(instance.customCss, { logoUrl: instance.logoUrl }).length === 0 ? instance.customCss : '';
  const css = custom ? `${root}\n\n${custom}\n` : `${root}\n`;
  const etag = `"${createHash('sha256').update(css).digest('base64url').slice(0, 27)}"`;
  return { css, etag };
}
