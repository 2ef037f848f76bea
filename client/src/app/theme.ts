import { type MantineColorsTuple, createTheme } from '@mantine/core';

const HEX = /^#?([0-9a-f]{6})$/i;

function toRgb(hex: string): [number, number, number] | null {
  const match = HEX.exec(hex.trim());
  if (!match) return null;
  const n = Number.parseInt(match[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

const toHex = (rgb: number[]) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
const mix = (a: number[], b: number[], weight: number) => a.map((c, i) => c + (b[i] - c) * weight);

/** Ten shades around an instance colour: 0–5 lighter, 6 the colour itself, 7–9 darker. */
export function shadesOf(hex: string, fallback = '228be6'): MantineColorsTuple {
  const base = toRgb(hex) ?? (toRgb(fallback) as [number, number, number]);
  const white = [255, 255, 255];
  const black = [0, 0, 0];
  const lighter = [0.92, 0.8, 0.65, 0.5, 0.35, 0.18].map((w) => toHex(mix(base, white, w)));
  const darker = [0.12, 0.24, 0.36].map((w) => toHex(mix(base, black, w)));
  return [...lighter, toHex(base), ...darker] as unknown as MantineColorsTuple;
}

/** '#12ab34' or '12AB34' → '12ab34'; anything else → null. Instances store colours without '#'. */
export function normaliseHex(value: string | null | undefined): string | null {
  const match = HEX.exec((value ?? '').trim());
  return match ? match[1].toLowerCase() : null;
}

/** Mantine theme with the instance colour as primary and its accent as a second palette. */
export function buildTheme(colors: { color: string; accent: string }) {
  return createTheme({
    primaryColor: 'brand',
    primaryShade: { light: 6, dark: 7 },
    colors: { brand: shadesOf(colors.color), accent: shadesOf(colors.accent, '7950f2') },
    defaultRadius: 'md',
  });
}
