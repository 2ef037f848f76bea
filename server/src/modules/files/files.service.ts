import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { AuthUser } from '#shared/contracts/auth';
import { newCode } from '../../common/codes';
import { AppError, forbidden, notFound, unprocessable } from '../../common/errors';
import { ModeratorScope, moderatorScope } from '../../common/moderator-scope';
import { ChatAccessService } from '../chat/chat-access.service';
import { ChatGroupEntity } from '../chat/chat-group.entity';
import { FileDto, UploadFileDto } from './dto/file.dto';
import { FileRenditionsService, renditionKey } from './file-renditions.service';
import { FileUploadBudget } from './file-upload-budget';
import { FileContext, FileEntity } from './file.entity';
import { safeFileName, sniffType } from './file-type';
import { FilesRepository } from './files.repository';
import { readImageHeader } from './image-header';
import { FileStorage } from './storage/file-storage';
import type { FileVariant } from '#shared/contracts/rest/files';

export type { FileVariant };

/** Reading as oneself only: own uploads and files of one's groups. */
const NO_SCOPE: ModeratorScope = { kind: 'none' };

export interface ServedFile {
  stream: Readable;
  mime: string;
  name: string;
  attachment: boolean;
}

@Injectable()
export class FilesService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly files: FilesRepository,
    private readonly storage: FileStorage,
    private readonly chatAccess: ChatAccessService,
    private readonly renditions: FileRenditionsService,
    private readonly budget: FileUploadBudget,
  ) {}

  /**
   * Stores an upload. An image's header is read first (no pixel decoded): over FILE_IMAGE_MAX_DECODED_BYTES it
   * is refused, else it spends upload budget by its decoded size; then the storage quota is checked, and its
   * renditions are asked of the rendition queue, never made here.
   */
  async upload(user: AuthUser, dto: UploadFileDto, upload: Express.Multer.File | undefined): Promise<FileDto> {
    if (!upload) throw unprocessable(['VALIDATION.FILE.REQUIRED']);
    if (upload.size === 0) throw unprocessable(['VALIDATION.FILE.EMPTY']);
    const group = dto.groupCode ? (await this.chatAccess.asParticipant(user, dto.groupCode)).group : null;
    const type = sniffType(upload.buffer);
    const header = type.kind === 'image' ? await readImageHeader(upload.buffer) : null;
    if (header) await this.budget.chargeImage(user, header);
    // A cheap early refusal before the bytes are written; saveWithinQuota() is the check that counts.
    if ((await this.files.bytesUsed(user.id)) + upload.size > this.config.FILE_QUOTA_BYTES) throw await this.quotaExceeded(user);
    const storageKey = randomBytes(18).toString('base64url');
    await this.storage.put(storageKey, upload.buffer);
    const file = await this.files
      .saveWithinQuota(
        {
          code: newCode(),
          secureCode: randomBytes(24).toString('base64url'),
          instanceId: user.instanceId,
          ownerId: user.id,
          context: dto.type === 'ChatGroup' ? FileContext.ChatGroup : FileContext.ChatMessage,
          groupId: group?.id ?? null,
          name: safeFileName(upload.originalname),
          size: String(upload.size),
          mime: type.mime,
          // An image until its renditions show otherwise (FileRenditionsService).
          kind: header ? 'image' : 'unknown',
          storageKey,
          hasThumbnail: false,
        },
        this.config.FILE_QUOTA_BYTES,
      )
      .catch(async (err: unknown) => {
        await this.storage.delete(storageKey);
        throw err;
      });
    if (!file) {
      await this.storage.delete(storageKey);
      throw await this.quotaExceeded(user);
    }
    if (header) this.renditions.request(file);
    return mapFile(file);
  }

  private async quotaExceeded(user: AuthUser): Promise<AppError> {
    return unprocessable(['VALIDATION.FILE.QUOTA_EXCEEDED'], { quotaBytes: this.config.FILE_QUOTA_BYTES, usedBytes: await this.files.bytesUsed(user.id) });
  }

  /**
   * Deletes a file the caller uploaded: its row (and so its place in the messages that carried it) and its bytes.
   * A file the caller may read but did not upload is 403; one they cannot see is 404.
   */
  async delete(user: AuthUser, code: string): Promise<void> {
    const deleted = await this.files.deleteOwned(code, user.id);
    if (!deleted) {
      const [visible] = await this.files.readable([code], user.id, NO_SCOPE);
      throw visible ? forbidden() : notFound();
    }
    await this.storage.delete(deleted.storageKey);
    await this.renditions.deleteRenditions(deleted.storageKey);
  }

  async list(user: AuthUser, codes: string[]): Promise<FileDto[]> {
    if (codes.length === 0) return [];
    const files = await this.readable(user, [...new Set(codes)]);
    this.renditions.resume(files);
    return files.map(mapFile);
  }

  /**
   * Files the user may read: own uploads and files of groups they are in; a moderator's files of other groups
   * in scope only while watching those groups (audited and visible, like reading their messages).
   */
  private async readable(user: AuthUser, codes: string[]): Promise<FileEntity[]> {
    const scope = moderatorScope(user);
    const files = await this.files.readable(codes, user.id, scope);
    if (scope.kind === 'none' || files.length === 0) return files;
    const mine = new Set((await this.files.readable(codes, user.id, NO_SCOPE)).map((f) => f.id));
    const others = files.filter((f) => !mine.has(f.id));
    if (others.length === 0) return files;
    const watched = await this.chatAccess.watchedGroupIds(
      user,
      others.map((f) => f.groupId!),
    );
    return files.filter((f) => mine.has(f.id) || watched.has(String(f.groupId)));
  }

  async serve(user: AuthUser, code: string, secureCode: string, variant: FileVariant): Promise<ServedFile> {
    const [file] = await this.readable(user, [code]);
    if (!file || file.secureCode !== secureCode) throw notFound();
    if (variant === 'Download') {
      const stream = await this.storage.get(file.storageKey);
      if (!stream) throw notFound();
      return { stream, mime: file.mime, name: file.name, attachment: true };
    }
    if (!file.hasThumbnail) throw notFound();
    const stream = await this.storage.get(renditionKey(file.storageKey, variant));
    if (!stream) throw notFound();
    return { stream, mime: 'image/png', name: file.name.replace(/\.[^.]*$/, '') + '.png', attachment: false };
  }

  /** Ids of files the sender may attach in this group: their own uploads, or files already shared there. */
  async idsForMessage(user: AuthUser, group: ChatGroupEntity, codes: string[]): Promise<string[]> {
    const files = await this.files.readable(codes, user.id, NO_SCOPE);
    const byCode = new Map(files.map((f) => [f.code, f]));
    return codes.map((code) => {
      const f = byCode.get(code);
      if (!f || (f.ownerId !== user.id && f.groupId !== group.id) || (f.groupId !== null && f.groupId !== group.id)) {
        throw unprocessable(['VALIDATION.FILES.UNKNOWN_FILE']);
      }
      return f.id;
    });
  }
}

export function mapFile(f: FileEntity): FileDto {
  return {
    code: f.code,
    secureCode: f.secureCode,
    name: f.name,
    size: Number(f.size),
    mime: f.mime,
    // The column holds only these two (file-type.ts); the answer's type says so.
    kind: f.kind === 'image' ? 'image' : 'unknown',
    hasThumbnail: f.hasThumbnail,
    createdAt: f.createdAt.toISOString(),
  };
}
