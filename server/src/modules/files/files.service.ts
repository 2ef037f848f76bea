import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { Inject, Injectable, Logger } from '@nestjs/common';
import sharp from 'sharp';
import { APP_CONFIG } from '#shared/config/config.module';
import { AppConfig } from '#shared/config/config.schema';
import { AuthUser } from '#shared/contracts/auth';
import { newCode } from '../../common/codes';
import { notFound, unprocessable } from '../../common/errors';
import { ModeratorScope, moderatorScope } from '../../common/moderator-scope';
import { ChatAccessService } from '../chat/chat-access.service';
import { ChatGroupEntity } from '../chat/chat-group.entity';
import { FileDto, UploadFileDto } from './dto/file.dto';
import { FileContext, FileEntity } from './file.entity';
import { safeFileName, sniffType } from './file-type';
import { FilesRepository } from './files.repository';
import { FileStorage } from './storage/file-storage';
import type { FileVariant } from '#shared/contracts/rest/files';

export type { FileVariant };

/** Reading as oneself only: own uploads and files of one's groups. */
const NO_SCOPE: ModeratorScope = { kind: 'none' };

const RENDITIONS = { Preview: 1280, Thumbnail: 320, Icon: 64 } as const;

export interface ServedFile {
  stream: Readable;
  mime: string;
  name: string;
  attachment: boolean;
}

@Injectable()
export class FilesService {
  private readonly logger = new Logger(FilesService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly files: FilesRepository,
    private readonly storage: FileStorage,
    private readonly chatAccess: ChatAccessService,
  ) {}

  async upload(user: AuthUser, dto: UploadFileDto, upload: Express.Multer.File | undefined): Promise<FileDto> {
    if (!upload) throw unprocessable(['VALIDATION.FILE.REQUIRED']);
    if (upload.size === 0) throw unprocessable(['VALIDATION.FILE.EMPTY']);
    const group = dto.groupCode ? (await this.chatAccess.asParticipant(user, dto.groupCode)).group : null;
    const type = sniffType(upload.buffer);
    const storageKey = randomBytes(18).toString('base64url');
    await this.storage.put(storageKey, upload.buffer);
    const hasThumbnail = type.kind === 'image' && (await this.makeRenditions(storageKey, upload.buffer));
    const file = await this.files.save({
      code: newCode(),
      secureCode: randomBytes(24).toString('base64url'),
      instanceId: user.instanceId,
      ownerId: user.id,
      context: dto.type === 'ChatGroup' ? FileContext.ChatGroup : FileContext.ChatMessage,
      groupId: group?.id ?? null,
      name: safeFileName(upload.originalname),
      size: String(upload.size),
      mime: type.mime,
      kind: hasThumbnail ? 'image' : 'unknown',
      storageKey,
      hasThumbnail,
    });
    return mapFile(file);
  }

  /** Re-encoded renditions: what is served inline is always our own PNG, never the uploaded bytes. */
  private async makeRenditions(key: string, data: Buffer): Promise<boolean> {
    const renditions: [string, Buffer][] = [];
    try {
      for (const [variant, size] of Object.entries(RENDITIONS)) {
        const png = await sharp(data, { limitInputPixels: 100_000_000, animated: false })
          .rotate()
          .resize(size, size, { fit: 'inside', withoutEnlargement: true })
          .png()
          .toBuffer();
        renditions.push([`${key}.${variant.toLowerCase()}`, png]);
      }
    } catch (err) {
      this.logger.warn(`image that does not decode, kept as a plain file: ${(err as Error).message}`);
      return false;
    }
    for (const [renditionKey, png] of renditions) await this.storage.put(renditionKey, png);
    return true;
  }

  async list(user: AuthUser, codes: string[]): Promise<FileDto[]> {
    if (codes.length === 0) return [];
    return (await this.readable(user, [...new Set(codes)])).map(mapFile);
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
    const stream = await this.storage.get(`${file.storageKey}.${variant.toLowerCase()}`);
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
