import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ChatGroupType, ChatMessageType } from '#shared/contracts/chat';
import type { OfferNoteData } from '#shared/contracts/events';
import type {
  ChatGroupPageResponse,
  ChatGroupResponse,
  ChatMessageResponse,
  ChatParticipantResponse,
  ChatUserResponse,
  MessagePageResponse,
  ReadResultResponse,
  StartChatResponse,
} from '#shared/contracts/rest/chat';
import type { UserAvatar } from '#shared/contracts/rest/users';
import type { ChatReplyPreview } from '#shared/contracts/events';
import type { UnreadCountPayload } from '#shared/contracts/socket-events';

export class AvatarDto implements UserAvatar {
  @ApiProperty({ description: "'initials', 'gravatar' (opted in) or 'custom'" }) code: string;
  @ApiProperty({ nullable: true, type: String, description: 'null for initials' }) url: string | null;
}

export class ChatUserDto implements ChatUserResponse {
  @ApiProperty() code: string;
  @ApiProperty() name: string;
  @ApiProperty() surname: string;
  @ApiProperty({ type: AvatarDto }) avatar: AvatarDto;
}

export class ChatParticipantDto implements ChatParticipantResponse {
  @ApiProperty() userCode: string;
  @ApiProperty({ type: ChatUserDto }) user: ChatUserDto;
  @ApiProperty({ description: '0 member, 1 owner' }) role: number;
  @ApiProperty({ description: 'seq of the newest message this participant has read' }) readSeq: number;
}

export class ChatReplyPreviewDto implements ChatReplyPreview {
  @ApiProperty() code: string;
  @ApiProperty() seq: number;
  @ApiProperty({ enum: ChatMessageType }) type: ChatMessageType;
  @ApiProperty({ nullable: true, type: String }) userCode: string | null;
  @ApiProperty({ description: "the start of the quoted text (200 characters at most); '' when it was deleted" }) message: string;
  @ApiProperty({ description: 'how many files the quoted message has' }) files: number;
  @ApiProperty({ description: 'the quoted message was deleted: show the deleted marker' }) deleted: boolean;
  @ApiPropertyOptional({ enum: [true], description: "only when the quoted message is one of the marketplace's offer notes" })
  offerNote?: true;
}

export class ChatMessageDto implements ChatMessageResponse {
  @ApiProperty() code: string;
  @ApiProperty() groupCode: string;
  @ApiProperty({ description: 'gap-free position in the group, from 1' }) seq: number;
  @ApiProperty({ enum: ChatMessageType, description: '0 Unknown, 1 Text, 2 FinalJobOfferRequest, 3 JobOfferApproved' })
  type: ChatMessageType;
  @ApiProperty({ description: "the text; '' for a deleted message" }) message: string;
  @ApiProperty({ nullable: true, type: String }) language: string | null;
  @ApiProperty({ nullable: true, type: String }) translation: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'author; null for system messages' }) userCode: string | null;
  @ApiProperty({ nullable: true, type: ChatUserDto }) user: ChatUserDto | null;
  @ApiProperty({ description: 'ISO 8601, millisecond precision' }) createdAt: string;
  @ApiProperty({ type: [String], description: 'file codes' }) files: string[];
  @ApiProperty({ nullable: true, type: String, description: "the sender's client key, for matching an optimistic message" })
  clientKey: string | null;
  @ApiProperty() deleted: boolean;
  @ApiPropertyOptional({ enum: [true], description: "only on the marketplace's offer notes (their text is a translation key)" })
  offerNote?: true;
  @ApiPropertyOptional({
    description:
      "only on offer notes posted with it: {status, terms?}, the status the note's move took the offer to and the terms (price, localPrice, deadline) a first price, a revision or a final offer set",
  })
  offerNoteData?: OfferNoteData;
  @ApiPropertyOptional({
    enum: [true],
    description: "only on a message sent in an offer's chat before it was Agreed with contact details or a request to pay off Parley",
  })
  offPlatform?: true;
  @ApiProperty({ nullable: true, type: ChatReplyPreviewDto, description: 'the quoted message of a reply, else null' })
  replyTo: ChatReplyPreviewDto | null;
  @ApiProperty({ nullable: true, type: String, description: 'ISO 8601 of the latest edit; null when never edited' })
  editedAt: string | null;
}

export class ChatGroupDto implements ChatGroupResponse {
  @ApiProperty() code: string;
  @ApiProperty({ nullable: true, type: String }) name: string | null;
  @ApiProperty({ nullable: true, type: String }) subtitle: string | null;
  @ApiProperty({ enum: ChatGroupType, description: '0 Unknown, 1 user, 2 job faq, 3 Job, 4 JobOffer, 5 project item' })
  type: ChatGroupType;
  @ApiProperty({ nullable: true, type: String }) targetId: string | null;
  @ApiProperty({ type: [ChatParticipantDto], description: 'in lists at most 20; see participantCount' })
  participants: ChatParticipantDto[];
  @ApiProperty() participantCount: number;
  @ApiProperty() lastSeq: number;
  @ApiProperty({ nullable: true, type: String }) lastMessageAt: string | null;
  @ApiProperty({ description: "the caller's read marker; 0 for a moderator who is not a participant" }) readSeq: number;
  @ApiProperty() unread: number;
  @ApiProperty({ description: 'muted now, for good or snoozed' }) muted: boolean;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'the end of a snooze; null while not snoozed' })
  mutedUntil: string | null;
  @ApiProperty({ description: 'a moderator is watching this chat live' }) watched: boolean;
  @ApiPropertyOptional({ nullable: true, type: ChatMessageDto }) lastMessage?: ChatMessageDto | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description: "job FAQ, job and job-offer chats: the job's title (in ?lang where the call takes it, else its default version); null for other chats",
  })
  jobTitle: string | null;
}

export class ChatGroupPageDto implements ChatGroupPageResponse {
  @ApiProperty({ type: [ChatGroupDto] }) groups: ChatGroupDto[];
  @ApiProperty() page: number;
  @ApiProperty() pageSize: number;
  @ApiProperty() hasMore: boolean;
}

export class GroupLookupDto {
  @ApiProperty({ nullable: true, type: ChatGroupDto, description: 'null when no such chat exists yet' })
  group: ChatGroupDto | null;
}

export class StartChatResultDto implements StartChatResponse {
  @ApiProperty({ type: ChatGroupDto }) group: ChatGroupDto;
  @ApiProperty({ nullable: true, type: ChatMessageDto }) message: ChatMessageDto | null;
}

export class MessagePageDto implements MessagePageResponse {
  @ApiProperty({ type: [ChatMessageDto], description: 'oldest first' }) messages: ChatMessageDto[];
  @ApiProperty() mayLoadOlder: boolean;
  @ApiProperty({ description: 'only for afterSeq pages: more messages follow' }) mayLoadNewer: boolean;
  @ApiProperty({ description: "the group's newest edit seq: `sync` with afterEditSeq from it returns later edits" })
  editSeq: number;
  @ApiProperty({
    description: "the newest translation seq in the reader's language: `sync` with afterTranslationSeq from it returns translations stored later",
  })
  translationSeq: number;
}

export class UnreadCountDto implements UnreadCountPayload {
  @ApiProperty() total: number;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' }, description: 'group code → unread, only non-zero' })
  groups: Record<string, number>;
}

export class ReadResultDto implements ReadResultResponse {
  @ApiProperty() readSeq: number;
  @ApiProperty({ type: UnreadCountDto }) unread: UnreadCountDto;
}
