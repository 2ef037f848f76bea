import { InitialSchema1763769600000 } from './1763769600000-InitialSchema';
import { ChatCore1763856000000 } from './1763856000000-ChatCore';
import { AuditLog1763942400000 } from './1763942400000-AuditLog';
import { Marketplace1764028800000 } from './1764028800000-Marketplace';
import { WebPush1764115200000 } from './1764115200000-WebPush';
import { PaymentPayerIndex1764201600000 } from './1764201600000-PaymentPayerIndex';
import { UserGravatarOptIn1764210000000 } from './1764210000000-UserGravatarOptIn';
import { JobTitleSearch1764220000000 } from './1764220000000-JobTitleSearch';
import { MessageReplyEdit1764236400000 } from './1764236400000-MessageReplyEdit';
import { UnreadCountIndexes1764300000000 } from './1764300000000-UnreadCountIndexes';
import { ReadMarkerHotUpdates1764400000000 } from './1764400000000-ReadMarkerHotUpdates';
import { ParticipantsVersion1764400100000 } from './1764400100000-ParticipantsVersion';
import { ParticipantAddedBy1764480000000 } from './1764480000000-ParticipantAddedBy';
import { DetachOutsiderJobChats1764480100000 } from './1764480100000-DetachOutsiderJobChats';
import { ChatMessageOfferNote1764500000000 } from './1764500000000-ChatMessageOfferNote';
import { ChatMessageOfferNoteBackfill1764500100000 } from './1764500100000-ChatMessageOfferNoteBackfill';
import { OfferPaymentDeclared1764500200000 } from './1764500200000-OfferPaymentDeclared';
import { FileStorageUsage1764520000000 } from './1764520000000-FileStorageUsage';
import { FileStorageUsageBackfill1764520100000 } from './1764520100000-FileStorageUsageBackfill';
import { MessageTranslations1764537000000 } from './1764537000000-MessageTranslations';
import { NotificationSettings1764600000000 } from './1764600000000-NotificationSettings';
import { EmailNotifications1764600100000 } from './1764600100000-EmailNotifications';
import { LinkedIdentities1764600200000 } from './1764600200000-LinkedIdentities';
import { TranslationSeq1764700000000 } from './1764700000000-TranslationSeq';
import { OfferEmails1764710000000 } from './1764710000000-OfferEmails';
import { OfferTimers1764730000000 } from './1764730000000-OfferTimers';
import { OfferReviews1764740000000 } from './1764740000000-OfferReviews';
import { ChatMessageOffPlatform1764750000000 } from './1764750000000-ChatMessageOffPlatform';
import { ReportsAndBlocks1764750100000 } from './1764750100000-ReportsAndBlocks';
import { ChatMessageOfferNoteData1764760000000 } from './1764760000000-ChatMessageOfferNoteData';
import { PaymentNumbers1764760100000 } from './1764760100000-PaymentNumbers';
import { OfferReminderEmails1764790000000 } from './1764790000000-OfferReminderEmails';
import { OutboxTraceparent1764810000000 } from './1764810000000-OutboxTraceparent';

/** Every migration, in order. Listed by class so the same list works compiled and under jest. */
export const migrations = [
  InitialSchema1763769600000,
  ChatCore1763856000000,
  AuditLog1763942400000,
  Marketplace1764028800000,
  WebPush1764115200000,
  PaymentPayerIndex1764201600000,
  UserGravatarOptIn1764210000000,
  JobTitleSearch1764220000000,
  MessageReplyEdit1764236400000,
  UnreadCountIndexes1764300000000,
  ReadMarkerHotUpdates1764400000000,
  ParticipantsVersion1764400100000,
  ParticipantAddedBy1764480000000,
  DetachOutsiderJobChats1764480100000,
  ChatMessageOfferNote1764500000000,
  ChatMessageOfferNoteBackfill1764500100000,
  OfferPaymentDeclared1764500200000,
  FileStorageUsage1764520000000,
  FileStorageUsageBackfill1764520100000,
  MessageTranslations1764537000000,
  NotificationSettings1764600000000,
  EmailNotifications1764600100000,
  LinkedIdentities1764600200000,
  TranslationSeq1764700000000,
  OfferEmails1764710000000,
  OfferTimers1764730000000,
  OfferReviews1764740000000,
  ChatMessageOffPlatform1764750000000,
  ReportsAndBlocks1764750100000,
  ChatMessageOfferNoteData1764760000000,
  PaymentNumbers1764760100000,
  OfferReminderEmails1764790000000,
  OutboxTraceparent1764810000000,
];
