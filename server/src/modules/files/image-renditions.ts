import sharp from 'sharp';
import type { FileVariant } from '#shared/contracts/rest/files';

export type RenditionVariant = Exclude<FileVariant, 'Download'>;

/** The longest side of each rendition, largest first: the smaller ones are made from the largest. */
export const RENDITION_SIZES: Record<RenditionVariant, number> = { Preview: 1280, Thumbnail: 320, Icon: 64 };

// One image at a time on one libvips thread, and no operation cache: a rendition costs at most one core and
// one of libuv's threads, and no memory once it is written.
sharp.concurrency(1);
sharp.cache(false);

/**
 * PNG renditions of an image, re-encoded (what is served inline is never the uploaded bytes). The original is
 * decoded once, straight to the Preview's size (JPEG and WebP shrink while they decode), as 8-bit pixels;
 * Thumbnail and Icon are made from those pixels. `maxPixels` is libvips' own limit, a second fence behind the
 * header check. Throws when the image does not decode.
 */
export async function makeRenditions(data: Buffer, maxPixels: number): Promise<Map<RenditionVariant, Buffer>> {
  const largest = RENDITION_SIZES.Preview;
  const { data: pixels, info } = await sharp(data, { limitInputPixels: maxPixels, animated: false, sequentialRead: true })
    .rotate()
    .resize(largest, largest, { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  const out = new Map<RenditionVariant, Buffer>();
  for (const [variant, size] of Object.entries(RENDITION_SIZES) as [RenditionVariant, number][]) {
    out.set(variant, await sharp(pixels, raw).resize(size, size, { fit: 'inside', withoutEnlargement: true }).png().toBuffer());
  }
  return out;
}
