import { ChatGroupType, ChatMessageType, REPLY_SNIPPET_LENGTH } from '#shared/contracts/chat';
import { ChatReplyPreview } from '#shared/contracts/events';
import { gravatarUrl } from '../../common/gravatar';
import { ChatGroupEntity } from './chat-group.entity';
import { GroupListRow, ParticipantRow } from './chat-groups.repository';
import { MessageRow } from './chat-messages.repository';
import { ChatGroupDto, ChatMessageDto, ChatParticipantDto, ChatUserDto } from './dto/chat-response.dto';

interface UserFields {
  code: string;
  name: string;
  surname: string;
  /** selected only for users who opted in to Gravatar */
  email: string | null;
  avatar_url: string | null;
}

export function mapChatUser(u: UserFields): ChatUserDto {
  return {
    code: u.code,
    name: u.name,
    surname: u.surname,
    avatar: u.avatar_url ? { code: 'custom', url: u.avatar_url } : u.email ? { code: 'gravatar', url: gravatarUrl(u.email) } : { code: 'initials', url: null },
  };
}

export function mapParticipant(p: ParticipantRow): ChatParticipantDto {
  return { userCode: p.code, user: mapChatUser(p), role: p.role, readSeq: Number(p.read_seq) };
}

export function mapChatMessage(row: MessageRow): ChatMessageDto {
  const deleted = row.deleted_at !== null;
  // Marked by where it came from (the column only the marketplace's note posting sets), never by its text.
  const offerNote = !deleted && row.offer_note === true;
  return {
    code: row.code,
    groupCode: row.group_code,
    seq: Number(row.seq),
    type: row.type as ChatMessageType,
    message: deleted ? '' : row.text,
    language: row.lang,
    translation: deleted ? null : row.translation,
    userCode: row.author_code,
    user: row.author_code
      ? mapChatUser({
          code: row.author_code,
          name: row.author_name ?? '',
          surname: row.author_surname ?? '',
          email: row.author_email,
          avatar_url: row.author_avatar_url,
        })
      : null,
    createdAt: new Date(row.created_at).toISOString(),
    files: deleted ? [] : (row.file_codes ?? []),
    clientKey: row.client_key,
    deleted,
    ...(offerNote ? { offerNote: true as const } : {}),
    ...(offerNote && row.offer_note_data ? { offerNoteData: row.offer_note_data } : {}),
    ...(!deleted && row.off_platform === true ? { offPlatform: true as const } : {}),
    replyTo: row.reply_to ? mapReplyPreview(row.reply_to) : null,
    editedAt: row.edited_at ? new Date(row.edited_at).toISOString() : null,
  };
}

/** The JSON preview from the message columns (numbers may come as strings from bigint counts; offerNote is a boolean there). */
export function mapReplyPreview(r: Omit<ChatReplyPreview, 'offerNote'> & { offerNote?: boolean }): ChatReplyPreview {
  return {
    code: r.code,
    seq: Number(r.seq),
    type: r.type,
    userCode: r.userCode,
    message: r.deleted ? '' : r.message,
    files: Number(r.files),
    deleted: r.deleted,
    ...(!r.deleted && r.offerNote === true ? { offerNote: true as const } : {}),
  };
}

/** The preview a reply shows of a message it quotes, from that message's row. */
export function replyPreviewOf(row: MessageRow): ChatReplyPreview {
  const deleted = row.deleted_at !== null;
  return {
    code: row.code,
    seq: Number(row.seq),
    type: row.type as ChatMessageType,
    userCode: row.author_code,
    message: deleted ? '' : Array.from(row.text).slice(0, REPLY_SNIPPET_LENGTH).join(''),
    files: deleted ? 0 : (row.file_codes ?? []).length,
    deleted,
    ...(!deleted && row.offer_note === true ? { offerNote: true as const } : {}),
  };
}

export function mapGroupRow(
  row: GroupListRow,
  participants: ParticipantRow[],
  lastMessage: MessageRow | undefined,
  watched: boolean,
  jobTitle: string | null = null,
): ChatGroupDto {
  return {
    code: row.code,
    name: row.name,
    subtitle: row.subtitle,
    type: row.type as ChatGroupType,
    targetId: row.target_id,
    participants: participants.map(mapParticipant),
    participantCount: Number(row.participant_count),
    lastSeq: Number(row.last_seq),
    lastMessageAt: row.last_message_at ? new Date(row.last_message_at).toISOString() : null,
    readSeq: Number(row.read_seq),
    unread: Number(row.unread),
    muted: row.muted,
    mutedUntil: row.muted_until ? new Date(row.muted_until).toISOString() : null,
    watched,
    lastMessage: lastMessage ? mapChatMessage(lastMessage) : null,
    jobTitle,
  };
}

/** A group seen by someone who is not in it (a moderator): no read marker, nothing unread. */
export function mapGroupForObserver(group: ChatGroupEntity, participants: ParticipantRow[], watched: boolean, jobTitle: string | null = null): ChatGroupDto {
  return {
    code: group.code,
    name: group.name,
    subtitle: group.subtitle,
    type: group.type,
    targetId: group.targetId,
    participants: participants.map(mapParticipant),
    participantCount: participants.length,
    lastSeq: Number(group.lastSeq),
    lastMessageAt: group.lastMessageAt ? group.lastMessageAt.toISOString() : null,
    readSeq: 0,
    unread: 0,
    muted: false,
    mutedUntil: null,
    watched,
    lastMessage: null,
    jobTitle,
  };
}
