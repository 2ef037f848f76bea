import { Injectable } from '@nestjs/common';
import { AuthUser } from '#shared/contracts/auth';
import { ChatMessageType } from '#shared/contracts/chat';
import { isOffPlatform } from '#shared/contracts/off-platform';
import { conflict, forbidden, notFound, unprocessable } from '../../common/errors';
import { DomainEvents } from '../../common/events/domain-events';
import { ChatAccessService } from './chat-access.service';
import { ChatGroupsRepository } from './chat-groups.repository';
import { ChatMessagesRepository } from './chat-messages.repository';
import { mapChatMessage } from './chat.mapper';
import { EditMessageDto } from './dto/chat-request.dto';
import { ChatMessageDto } from './dto/chat-response.dto';

export const MESSAGE_DELETED = 'CHAT.MESSAGE.DELETED';
export const MESSAGE_NOT_EDITABLE = 'CHAT.MESSAGE.NOT_EDITABLE';

/** Edits of a message's text by its author. */
@Injectable()
export class ChatMessageEditsService {
  constructor(
    private readonly access: ChatAccessService,
    private readonly groups: ChatGroupsRepository,
    private readonly messages: ChatMessagesRepository,
    private readonly events: DomainEvents,
  ) {}

  /**
   * The author (still a participant) replaces the text of their own text message, validated like a send. A
   * deleted message is 409; system messages and the marketplace's offer notes (marked when the marketplace posts
   * them, whatever their text) are 409 too: they record what happened. The same text again changes nothing.
   */
  async edit(user: AuthUser, groupCode: string, messageCode: string, dto: EditMessageDto): Promise<ChatMessageDto> {
    const { group } = await this.access.asParticipant(user, groupCode);
    const row = await this.messages.findByCode(group.id, messageCode);
    if (!row) throw notFound();
    if (row.author_code !== user.code) throw forbidden();
    if (row.deleted_at) throw conflict(MESSAGE_DELETED);
    if (row.type !== ChatMessageType.Text || row.offer_note) throw conflict(MESSAGE_NOT_EDITABLE);
    const text = dto.message.trim();
    if (!text && row.file_codes.length === 0) throw unprocessable(['VALIDATION.MESSAGE.EMPTY']);
    if (text === row.text) return mapChatMessage(row);
    const edited = await this.messages.editText(row.id, text, isOffPlatform(text));
    if (!edited) throw conflict(MESSAGE_DELETED);
    const message = mapChatMessage(edited);
    await this.events.emit('message.edited', {
      message,
      participantCodes: await this.groups.participantCodes(group.id),
    });
    return message;
  }
}
