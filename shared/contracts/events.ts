import type { InstanceUpdatedPayload, JobUpdatedPayload, OfferTerms } from './socket-events';
import type { ReportResolvedPayload } from './rest/reports';
import { ChatGroupType, ChatMessageType } from './chat';
import type { ChatUserResponse } from './rest/chat';

/** The quoted message a reply shows: a snippet of its text, or the deleted marker. */
export interface ChatReplyPreview {
  code: string;
  seq: number;
  type: ChatMessageType;
  userCode: string | null;
  /** at most REPLY_SNIPPET_LENGTH characters; '' for a deleted message */
  message: string;
  files: number;
  deleted: boolean;
  /** Set (true) when the quoted message is one of the marketplace's offer notes (its text is a translation key). */
  offerNote?: true;
}

/** What an offer note's move did: the status it moved the offer to and, when it set them, the terms (price, deadline). */
export interface OfferNoteData {
  status: number;
  /** on a first price, a revision and a final offer: the terms the move set */
  terms?: Omit<OfferTerms, 'version' | 'lapsesAt'>;
}

/** A chat message as REST, events and sockets carry it. */
export interface ChatMessagePayload {
  code: string;
  groupCode: string;
  seq: number;
  type: ChatMessageType;
  message: string;
  language: string | null;
  translation: string | null;
  userCode: string | null;
  /** The author as REST shows them; null for a system message. */
  user: ChatUserResponse | null;
  createdAt: string;
  files: string[];
  clientKey: string | null;
  deleted: boolean;
  /** Set (true) by the server on the marketplace's offer notes, whose text is a translation key; absent on any other message. */
  offerNote?: true;
  /** On offer notes only, set by the marketplace with the note: what its move did (absent on notes posted before it was kept). */
  offerNoteData?: OfferNoteData;
  /**
   * Set (true) by the server on a message sent in an offer's chat before the offer was Agreed that carries contact
   * details or asks for payment outside Parley (shared/contracts/off-platform.ts): readers show a safety note.
   */
  offPlatform?: true;
  /** The quoted message; absent or null when this is not a reply. */
  replyTo?: ChatReplyPreview | null;
  /** UTC ISO of the latest edit; absent or null when never edited. */
  editedAt?: string | null;
}

export interface MessageCreatedEvent {
  message: ChatMessagePayload;
  groupType: ChatGroupType;
  /** Codes of every participant, the author included. */
  participantCodes: string[];
  /** The socket it was sent from, if any: that socket has it in its acknowledgement and gets no `message:new`. */
  originSocketId?: string;
}

export interface MessageDeletedEvent {
  groupCode: string;
  code: string;
  seq: number;
  /** when the message was sent (ISO) */
  createdAt: string;
  actorCode: string;
  actorId: string;
  byModerator: boolean;
  participantCodes: string[];
}

export interface MessageEditedEvent {
  message: ChatMessagePayload;
  participantCodes: string[];
}

export interface GroupChangedEvent {
  groupCode: string;
  change: 'created' | 'renamed' | 'participants' | 'watched';
  participantCodes: string[];
}

export interface GroupReadEvent {
  groupCode: string;
  userCode: string;
  seq: number;
  /** what is still unread in the group after the read (usually 0) */
  unread: number;
  /** the group's last seq when `unread` was counted */
  lastSeq: number;
}

export interface OfferStatusChangedEvent {
  jobCode: string;
  offerCode: string;
  groupCode: string;
  status: number;
  previousStatus: number;
  /** null: a timer moved the offer */
  actorCode: string | null;
  at: string;
  /** the offer's provider and the job's customer */
  participantCodes: string[];
  /** the moved offer's terms after the move; left out for offers closed as a side effect (their terms did not change) */
  terms?: OfferTerms;
}

export interface JobUpdatedEvent {
  instanceId: string;
  job: JobUpdatedPayload;
}

export interface InstanceUpdatedEvent {
  instanceId: string;
  instance: InstanceUpdatedPayload;
}

/** Domain events, named entity.pastTense, emitted only after the change has committed. */
export interface DomainEventMap {
  'message.created': MessageCreatedEvent;
  'message.deleted': MessageDeletedEvent;
  'message.edited': MessageEditedEvent;
  'group.changed': GroupChangedEvent;
  'group.read': GroupReadEvent;
  'offer.status-changed': OfferStatusChangedEvent;
  'job.updated': JobUpdatedEvent;
  'instance.updated': InstanceUpdatedEvent;
  'report.resolved': ReportResolvedEvent;
}

/** A moderator resolved a report: the reporter is told, and a warned user is warned. */
export interface ReportResolvedEvent {
  reporterCode: string;
  reportedCode: string;
  payload: ReportResolvedPayload;
  /** False for the other reports of a pile closed with the one acted on: the person is warned once. */
  warnsReported: boolean;
  at: string;
}
