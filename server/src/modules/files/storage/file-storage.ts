import { Readable } from 'node:stream';

/** Where file bytes live; local disk now, an S3-compatible store can implement the same. */
export abstract class FileStorage {
  abstract put(key: string, data: Buffer): Promise<void>;
  abstract get(key: string): Promise<Readable | null>;
  /** The whole file in memory, or null when there is none. */
  abstract read(key: string): Promise<Buffer | null>;
  abstract delete(key: string): Promise<void>;
}
