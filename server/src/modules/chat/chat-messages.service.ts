import { Injectable } from '@nestjs/common';
import { AuthUser } from '#shared/contracts/auth';
import { ChatMessageType } from '#shared/contracts/chat';
import { ChatMessagePayload, OfferNoteData } from '#shared/contracts/events';
import { MessageUpdatedPayload, SyncAnswer } from '#shared/contracts/socket-events';
import { isOffPlatform } from '#shared/contracts/off-platform';
import { newCode } from '../../common/codes';
import { forbidden, notFound, unprocessable } from '../../common/errors';
import { DomainEvents } from '../../common/events/domain-events';
import { FilesService } from '../files/files.service';
import { moderatesInstance } from '../../common/moderator-scope';
import { ChatAccessService } from './chat-access.service';
import { ChatGroupsRepository } from './chat-groups.repository';
import { ChatMessageInsertQueue } from './send/chat-message-insert.queue';
import { ChatMessagesRepository, MessageRow } from './chat-messages.repository';
import { mapChatMessage, replyPreviewOf } from './chat.mapper';
import { MessageContentDto, PageMessagesDto, SendMessageDto } from './dto/chat-request.dto';
import { ChatMessageDto, MessagePageDto } from './dto/chat-response.dto';
import { ChatGroupEntity } from './chat-group.entity';
import { GroupKindsCache } from './group-kinds.cache';
import { UnreadService } from './unread/unread.service';
import { MessageTranslationsRepository } from '../translation/message-translations.repository';

const SYNC_PER_GROUP = 200;
/** At most this many messages in one sync answer, whatever the number of groups asked for. */
export const SYNC_MAX_MESSAGES = 500;

@Injectable()
export class ChatMessagesService {
  constructor(
    private readonly access: ChatAccessService,
    private readonly groups: ChatGroupsRepository,
    private readonly messages: ChatMessagesRepository,
    private readonly inserts: ChatMessageInsertQueue,
    private readonly files: FilesService,
    private readonly unread: UnreadService,
    private readonly events: DomainEvents,
    private readonly translations: MessageTranslationsRepository,
  ) {}

  private readonly kinds = new GroupKindsCache();

  /**
   * Sends as a participant; a repeated client key returns the stored message and emits nothing. From a socket
   * (`originSocketId`), that socket gets the message in its acknowledgement only.
   */
  async send(user: AuthUser, groupCode: string, dto: SendMessageDto, originSocketId?: string): Promise<ChatMessageDto> {
    const text = (dto.message ?? '').trim();
    const fileCodes = dto.files ?? [];
    if (!text && fileCodes.length === 0) throw unprocessable(['VALIDATION.MESSAGE.EMPTY']);
    let fileIds: string[] = [];
    let reply: MessageRow | null = null;
    if (fileCodes.length || dto.replyToId) {
      const { group } = await this.access.asParticipant(user, groupCode);
      if (fileCodes.length) fileIds = await this.files.idsForMessage(user, group, fileCodes);
      if (dto.replyToId) reply = await this.replyTarget(group.id, dto.replyToId);
    }
    // Text only: the membership check is part of the insert statement, so this is one round trip. The detector
    // runs here (a few µs) for offer chats (and groups this process has not stored in yet); the statement marks
    // the message only in an offer's chat before Agreed.
    const offPlatform = text !== '' && this.kinds.mayBeOfferChat(groupCode) && isOffPlatform(text);
    return this.store(
      groupCode,
      user.id,
      ChatMessageType.Text,
      text,
      dto.lang ?? null,
      dto.clientKey ?? null,
      fileIds,
      fileCodes,
      reply,
      null,
      offPlatform,
      originSocketId,
    );
  }

  /** The quoted message must be in the same group; a deleted one may still be quoted (it shows as deleted). */
  private async replyTarget(groupId: string, code: string): Promise<MessageRow> {
    const row = await this.messages.findByCode(groupId, code);
    if (!row) throw unprocessable(['VALIDATION.REPLY_TO.NOT_FOUND']);
    return row;
  }

  /** Sends the first message of a group the caller just created or found (caller known to be a participant). */
  sendFirst(user: AuthUser, group: ChatGroupEntity, dto: MessageContentDto): Promise<ChatMessageDto | null> {
    const text = (dto.message ?? '').trim();
    if (!text && !dto.files?.length) return Promise.resolve(null);
    return this.send(user, group.code, dto);
  }

  /** For other modules: a system message, optionally on someone's behalf. It is not an offer note. */
  async postSystemMessage(group: ChatGroupEntity, type: ChatMessageType, text: string, authorId: string | null = null): Promise<ChatMessageDto> {
    return this.store(group.code, authorId, type, text, null, null, [], []);
  }

  /**
   * For the marketplace only: the note of an offer's move, authored by the party that moved (nobody: a timer). The only way a
   * message is stored marked as an offer note (offer_note); its text is a translation key.
   */
  async postOfferNote(group: ChatGroupEntity, type: ChatMessageType, text: string, authorId: string | null, data: OfferNoteData): Promise<ChatMessageDto> {
    return this.store(group.code, authorId, type, text, null, null, [], [], null, data);
  }

  private async store(
    groupCode: string,
    authorId: string | null,
    type: ChatMessageType,
    text: string,
    lang: string | null,
    clientKey: string | null,
    fileIds: string[],
    fileCodes: string[],
    reply: MessageRow | null = null,
    offerNoteData: OfferNoteData | null = null,
    offPlatform = false,
    originSocketId?: string,
  ): Promise<ChatMessageDto> {
    const offerNote = offerNoteData !== null;
    const input = {
      groupCode,
      authorId,
      code: newCode(),
      type,
      text,
      lang,
      clientKey,
      fileIds,
      fileCodes,
      replyToId: reply?.id ?? null,
      offerNote,
      offerNoteData,
      offPlatform,
    };
    const result = await this.inserts.insert(input);
    if (!result) throw notFound();
    this.kinds.remember(groupCode, result.groupType);
    const message = mapChatMessage(result.row);
    // A new message's row carries no preview; a retry's row (read again) already has the stored one.
    if (reply && result.created) message.replyTo = replyPreviewOf(reply);
    if (result.created) {
      this.events.emit('message.created', {
        message,
        groupType: result.groupType,
        participantCodes: result.participantCodes,
        ...(originSocketId ? { originSocketId } : {}),
      });
    }
    return message;
  }

  /**
   * A page of messages: the newest (which marks the group read), older than `time`/`beforeSeq`,
   * or newer than `afterSeq` for catching up.
   */
  async page(user: AuthUser, groupCode: string, dto: PageMessagesDto): Promise<MessagePageDto> {
    const { group, participant } = await this.access.asReader(user, groupCode);
    // Read before the page: an edit made while the page is read is after this seq, so `sync` brings it.
    const editSeq = await this.messages.newestEditSeq(group.id);
    const translationSeq = await this.translations.newestSeq(user.id);
    if (dto.afterSeq !== undefined) {
      const { rows, more } = await this.messages.pageAfter(group.id, dto.afterSeq);
      await this.translations.forReader(rows, user.id, dto.lang);
      if (participant && rows.length && !more) await this.unread.markRead(user, group, Number(rows[rows.length - 1].seq));
      return { messages: rows.map(mapChatMessage), mayLoadOlder: dto.afterSeq > 0, mayLoadNewer: more, editSeq, translationSeq };
    }
    const newest = dto.time === undefined && dto.beforeSeq === undefined;
    const { rows, more } = await this.messages.pageBefore(group.id, {
      time: dto.time ? new Date(dto.time) : undefined,
      seq: dto.beforeSeq,
    });
    await this.translations.forReader(rows, user.id, dto.lang);
    if (participant && newest && rows.length) await this.unread.markRead(user, group, Number(rows[rows.length - 1].seq));
    return { messages: rows.map(mapChatMessage), mayLoadOlder: more, mayLoadNewer: false, editSeq, translationSeq };
  }

  /**
   * Catch-up after a reconnect: every message after each group's seq, oldest first, at most `perGroup` per
   * group and `SYNC_MAX_MESSAGES` in all; `more` names the groups to ask again (cut short, or not reached),
   * `missing` the ones the caller can't read. With `afterEditSeq`, also the held messages edited since (in the
   * same budget) and the edit seq to ask from next time; with `afterTranslationSeq`, the translations into the
   * reader's language stored since of the messages held (also in the budget) and the translation seq to ask from.
   */
  async since(
    user: AuthUser,
    groups: { groupCode: string; afterSeq: number; afterEditSeq?: number; afterTranslationSeq?: number }[],
    perGroup = SYNC_PER_GROUP,
  ): Promise<SyncAnswer> {
    const messages: ChatMessagePayload[] = [];
    const edited: ChatMessagePayload[] = [];
    const editSeqs: Record<string, number> = {};
    const translated: MessageUpdatedPayload[] = [];
    const translationSeqs: Record<string, number> = {};
    // Read before anything else: a translation stored while this answer is read is after it, so the next sync has it.
    const newestTranslation = groups.some((g) => g.afterTranslationSeq !== undefined) ? await this.translations.newestSeq(user.id) : 0;
    const more: string[] = [];
    const missing: string[] = [];
    for (const { groupCode, afterSeq, afterEditSeq, afterTranslationSeq } of groups) {
      const budget = Math.min(perGroup, SYNC_MAX_MESSAGES - messages.length - edited.length - translated.length);
      if (budget <= 0) {
        more.push(groupCode);
        continue;
      }
      let group: ChatGroupEntity;
      try {
        // A moderator's socket reads a room it does not belong to only while watching it (else: missing).
        ({ group } = await this.access.asReader(user, groupCode));
      } catch {
        missing.push(groupCode);
        continue;
      }
      const page = await this.messages.pageAfter(group.id, afterSeq, budget);
      await this.translations.forReader(page.rows, user.id);
      messages.push(...page.rows.map(mapChatMessage));
      let cutShort = page.more;
      let editBudget = budget - page.rows.length;
      if (afterEditSeq !== undefined) {
        // Edits of messages the client already holds (up to afterSeq); later ones came above with their new text.
        if (editBudget <= 0) cutShort = true;
        else {
          const edits = await this.messages.editedAfter(group.id, afterSeq, afterEditSeq, editBudget);
          await this.translations.forReader(edits.rows, user.id);
          edited.push(...edits.rows.map(mapChatMessage));
          editSeqs[groupCode] = edits.rows.length ? Number(edits.rows[edits.rows.length - 1].edit_seq) : afterEditSeq;
          cutShort ||= edits.more;
          editBudget -= edits.rows.length;
        }
      }
      if (afterTranslationSeq !== undefined) {
        // Translations stored late (the reader was away when they were announced) of the messages held.
        if (editBudget <= 0) cutShort = true;
        else {
          const late = await this.translations.storedAfter(group.id, group.code, afterSeq, afterTranslationSeq, user.id, editBudget);
          translated.push(...late.updates);
          translationSeqs[groupCode] = late.more ? late.lastSeq! : Math.max(afterTranslationSeq, newestTranslation, late.lastSeq ?? 0);
          cutShort ||= late.more;
        }
      }
      if (cutShort) more.push(groupCode);
    }
    return { messages, more, missing, edited, editSeqs, translated, translationSeqs };
  }

  /** The author or a moderator in scope turns a message into a deleted marker. */
  async delete(user: AuthUser, groupCode: string, messageCode: string): Promise<void> {
    // Deleting reads nothing, and a moderator's delete is audited and leaves a visible marker.
    const { group } = await this.access.asObserver(user, groupCode);
    const row = await this.messages.findByCode(group.id, messageCode);
    if (!row) throw notFound();
    const isAuthor = row.author_code === user.code;
    const isModerator = moderatesInstance(user, group.instanceId);
    if (!isAuthor && !isModerator) throw forbidden();
    if (row.deleted_at) return;
    if (!(await this.messages.markDeleted(row.id, user.id))) return;
    await this.events.emit('message.deleted', {
      groupCode: group.code,
      code: row.code,
      seq: Number(row.seq),
      createdAt: new Date(row.created_at).toISOString(),
      actorCode: user.code,
      actorId: user.id,
      byModerator: !isAuthor,
      participantCodes: await this.groups.participantCodes(group.id),
    });
  }
}
