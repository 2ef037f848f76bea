import sharp from 'sharp';

/** What an image's header says it decodes to; read without decoding a pixel. */
export interface ImageHeader {
  width: number;
  height: number;
  channels: number;
  bytesPerChannel: number;
  frames: number;
  /** width × height × channels × bytes per channel × frames: the memory and CPU a full decode costs */
  decodedBytes: number;
}

const BYTES_PER_CHANNEL: Record<string, number> = { uchar: 1, char: 1, ushort: 2, short: 2, uint: 4, int: 4, float: 4, complex: 8, double: 8, dpcomplex: 16 };

/**
 * The header of an image (libvips reads the header only: for a PNG, the chunks before the first IDAT), or
 * null when it is no image sharp can read.
 */
export async function readImageHeader(data: Buffer): Promise<ImageHeader | null> {
  try {
    const meta = await sharp(data).metadata();
    if (!meta.width || !meta.height) return null;
    const channels = meta.channels ?? 4;
    const bytesPerChannel = BYTES_PER_CHANNEL[meta.depth ?? 'uchar'] ?? 8;
    // For an animation libvips reports one frame's size and the number of frames.
    const frames = Math.max(1, meta.pages ?? 1);
    return {
      width: meta.width,
      height: meta.height,
      channels,
      bytesPerChannel,
      frames,
      decodedBytes: meta.width * meta.height * channels * bytesPerChannel * frames,
    };
  } catch {
    return null;
  }
}
