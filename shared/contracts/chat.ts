/** Chat group types, as the product spec names them. */
export enum ChatGroupType {
  Unknown = 0,
  User = 1,
  JobFaq = 2,
  Job = 3,
  JobOffer = 4,
  ProjectItem = 5,
}

/** Groups about a target (a job, an offer, a project item): one group per target. */
export const TARGET_GROUP_TYPES = [ChatGroupType.JobFaq, ChatGroupType.Job, ChatGroupType.JobOffer, ChatGroupType.ProjectItem];

export enum ChatMessageType {
  Unknown = 0,
  Text = 1,
  FinalJobOfferRequest = 2,
  JobOfferApproved = 3,
}

export enum ParticipantRole {
  Member = 0,
  Owner = 1,
}

export const MESSAGE_MAX_LENGTH = 10_000;
export const MESSAGE_PAGE_SIZE = 50;
/** How much of the quoted message a reply carries. */
export const REPLY_SNIPPET_LENGTH = 200;
export const CLIENT_KEY_PATTERN = /^-?[A-Za-z0-9_-]{1,64}$/;
