import type { ChatGroupType, ChatMessageType, ParticipantRole } from '@contracts/chat';

/**
 * The chat contract's enums as values (shared/contracts/chat.ts): the client imports contracts as types
 * only, so these copies are checked against the enums name by name and cannot drift.
 */

/** Group types: job FAQ and job chats target a job code, job-offer chats an offer code. */
export const GROUP_TYPE = { User: 1, JobFaq: 2, Job: 3, JobOffer: 4 } as const satisfies Partial<typeof ChatGroupType>;

/** A participant's role in a chat: the owner of a job's chats is the job's customer. */
export const PARTICIPANT_ROLE = { Member: 0, Owner: 1 } as const satisfies typeof ParticipantRole;

/** Message types (spec section 3). */
export const MESSAGE_TYPE = { Text: 1, FinalJobOfferRequest: 2, JobOfferApproved: 3 } as const satisfies Partial<typeof ChatMessageType>;
