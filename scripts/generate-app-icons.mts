/**
 * Draws the web app manifest's icons from the main logo (client/public/assets/logo.svg) with sharp:
 * icon-192.png and icon-512.png as the logo is (rounded square), and maskable-512.png full bleed in the
 * logo's blue with the speech bubble inside the central safe zone (a circle of 80% of the side), so a
 * launcher's round or squircle mask never cuts it. The PNGs are committed; run this again after the logo changes:
 *   node --import tsx scripts/generate-app-icons.mts
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';

const root = join(import.meta.dirname, '..', 'client', 'public', 'assets');
const out = join(root, 'icons');

const logo = await readFile(join(root, 'logo.svg'), 'utf8');
const blue = /<rect[^>]*fill="(#[0-9a-fA-F]{6})"/.exec(logo)?.[1] ?? '#228be6';
// The logo's inner shapes (everything after its background rect), scaled into the safe zone around their centre (32, 35).
const shapes = logo.replace(/^[\s\S]*?<rect[^>]*\/>/, '').replace(/<\/svg>\s*$/, '');
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64" width="64" height="64"><rect width="64" height="64" fill="${blue}"/><g transform="translate(32 32) scale(0.8) translate(-32 -35)">${shapes}</g></svg>`;

async function draw(svg: string, size: number, name: string): Promise<void> {
  await sharp(Buffer.from(svg), { density: (72 * size) / 64 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(join(out, name));
  console.log(`wrote ${join(out, name)}`);
}

await draw(logo, 192, 'icon-192.png');
await draw(logo, 512, 'icon-512.png');
await draw(maskable, 512, 'maskable-512.png');
