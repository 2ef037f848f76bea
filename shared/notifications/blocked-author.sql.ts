import { ChatGroupType } from '#shared/contracts/chat';

/**
 * SQL: the participant `p` blocked the author of this message, so it is neither pushed nor e-mailed to them (the
 * server still delivers it; their client collapses it). An offer's chat is the exception: the deal goes on
 * after a block, so its messages still notify (docs/moderation.md, "Blocks and offers"). `authorId` and
 * `groupType` are SQL expressions for the message's author and its chat's type.
 */
export const blockedAuthorSql = (authorId: string, groupType: string) =>
  `(${groupType} <> ${ChatGroupType.JobOffer} AND EXISTS (SELECT 1 FROM user_block b WHERE b.blocker_id = p.user_id AND b.blocked_id = ${authorId}))`;
