import { constants, crc32, deflateRawSync } from 'node:zlib';

const ZERO_CHUNK = 1 << 20;

/**
 * A valid PNG of `width` × `height` pixels, 16-bit RGBA (8 bytes a pixel) and every pixel zero, built without
 * ever holding the decoded bytes: the zlib stream repeats one fully flushed block of 1 MiB of zeros, which is
 * self-contained, so copies of it concatenate into a valid stream. 10,000 × 10,000 comes out near 780 KB and
 * decodes to 800 MB.
 */
export function pngBomb(width = 10_000, height = 10_000): Buffer {
  const raw = height * (1 + width * 8); // each row: filter byte 0, then the row's bytes
  const full = deflateRawSync(Buffer.alloc(ZERO_CHUNK), { finishFlush: constants.Z_FULL_FLUSH, level: 9 });
  const rest = raw % ZERO_CHUNK;
  const parts = [Buffer.from([0x78, 0xda])];
  for (let i = 0; i < Math.floor(raw / ZERO_CHUNK); i++) parts.push(full);
  if (rest) parts.push(deflateRawSync(Buffer.alloc(rest), { finishFlush: constants.Z_FULL_FLUSH, level: 9 }));
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((raw % 65521) << 16) | 1) >>> 0); // Adler-32 of `raw` zero bytes
  parts.push(Buffer.from([0x03, 0x00]), adler); // an empty final block, then the checksum

  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([16, 6, 0, 0, 0], 8); // 16 bits per channel, RGBA, deflate, adaptive filters, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.concat(parts)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])));
  return Buffer.concat([head, data, crc]);
}
