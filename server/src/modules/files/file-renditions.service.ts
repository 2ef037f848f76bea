import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { BoundedWorkQueue } from './bounded-work-queue';
import { FileEntity } from './file.entity';
import { FilesRepository } from './files.repository';
import { readImageHeader } from './image-header';
import { makeRenditions, RENDITION_SIZES, RenditionVariant } from './image-renditions';
import { FileStorage } from './storage/file-storage';

/** A pending image whose renditions no queue took (full, or its server restarted) is asked for again after this. */
const RETRY_AFTER_MS = 60_000;

export const renditionKey = (storageKey: string, variant: RenditionVariant) => `${storageKey}.${variant.toLowerCase()}`;

/** Whether the file is an image whose renditions are not stored yet (it is described with hasThumbnail false). */
export const renditionPending = (file: Pick<FileEntity, 'kind' | 'hasThumbnail'>) => file.kind === 'image' && !file.hasThumbnail;

/**
 * Makes image renditions off the request path: an upload stores the original and asks for its renditions here;
 * a small in-process queue (FILE_RENDITION_CONCURRENCY at once, FILE_RENDITION_QUEUE held) makes them, so
 * decoding never holds more than that many of libuv's threads, which logins (argon2) and file reads share.
 * Until they are stored the file is served as a plain file: the rendition URLs answer 404.
 */
@Injectable()
export class FileRenditionsService {
  private readonly logger = new Logger(FileRenditionsService.name);
  private readonly queue: BoundedWorkQueue;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly files: FilesRepository,
    private readonly storage: FileStorage,
  ) {
    this.queue = new BoundedWorkQueue(config.FILE_RENDITION_CONCURRENCY, config.FILE_RENDITION_QUEUE);
  }

  /** Queues the file's renditions; false when the queue is full (the file stays pending, see resume()). */
  request(file: Pick<FileEntity, 'id' | 'storageKey'>): boolean {
    return this.queue.offer(file.id, () => this.render(file).catch((err: Error) => this.logger.error(`renditions of file ${file.id} failed: ${err.message}`)));
  }

  /** Asks again for pending renditions that no queue has made for a while (a full queue, a restart). */
  resume(files: FileEntity[]): void {
    const stale = Date.now() - RETRY_AFTER_MS;
    for (const file of files) if (renditionPending(file) && file.createdAt.getTime() < stale) this.request(file);
  }

  /** Resolves once this server has no rendition waiting or running. */
  drained(): Promise<void> {
    return this.queue.drained();
  }

  private async render(file: Pick<FileEntity, 'id' | 'storageKey'>): Promise<void> {
    const data = await this.storage.read(file.storageKey);
    if (!data) return;
    const header = await readImageHeader(data);
    let renditions: Map<RenditionVariant, Buffer>;
    try {
      if (!header || header.decodedBytes > this.config.FILE_IMAGE_MAX_DECODED_BYTES) throw new Error('no image within the decoded-size limit');
      renditions = await makeRenditions(data, header.width * header.height);
    } catch (err) {
      this.logger.warn(`image that does not decode, kept as a plain file: ${(err as Error).message}`);
      await this.files.markNotImage(file.id);
      return;
    }
    for (const [variant, png] of renditions) await this.storage.put(renditionKey(file.storageKey, variant), png);
    // Deleted while its renditions were made: they go too.
    if (!(await this.files.markRendered(file.id))) await this.deleteRenditions(file.storageKey);
  }

  async deleteRenditions(storageKey: string): Promise<void> {
    for (const variant of Object.keys(RENDITION_SIZES) as RenditionVariant[]) await this.storage.delete(renditionKey(storageKey, variant));
  }
}
