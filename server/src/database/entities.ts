import { ChatGroupEntity } from '../modules/chat/chat-group.entity';
import { ChatMessageEntity } from '../modules/chat/chat-message.entity';
import { ChatParticipantEntity } from '../modules/chat/chat-participant.entity';
import { FileEntity } from '../modules/files/file.entity';
import { AuditLogEntity } from '../modules/moderation/audit-log.entity';
import { IdempotencyKeyEntity } from '../modules/marketplace/idempotency-key.entity';
import { JobOfferEntity, JobOfferEventEntity } from '../modules/marketplace/job-offer.entity';
import { JobEntity, JobRoleUserEntity, JobVersionEntity } from '../modules/marketplace/job.entity';
import { PaymentEntity } from '../modules/marketplace/payments/payment.entity';
import { OutboxEntity } from '../modules/outbox/outbox.entity';
import { PushNotificationEntity } from '#shared/push/push-notification.entity';
import { PushSubscriptionEntity } from '#shared/push/push-subscription.entity';
import { LinkedIdentityEntity } from '../modules/auth/oidc/linked-identity.entity';
import { RefreshTokenEntity } from '../modules/auth/refresh-token.entity';
import { InstanceEntity } from '../modules/instances/instance.entity';
import { UserEntity } from '../modules/users/user.entity';

/** Every entity; the server, the worker and the migration CLI share this list. */
export const entities = [
  InstanceEntity,
  UserEntity,
  RefreshTokenEntity,
  LinkedIdentityEntity,
  ChatGroupEntity,
  ChatParticipantEntity,
  ChatMessageEntity,
  FileEntity,
  OutboxEntity,
  AuditLogEntity,
  JobEntity,
  JobVersionEntity,
  JobRoleUserEntity,
  JobOfferEntity,
  JobOfferEventEntity,
  PaymentEntity,
  IdempotencyKeyEntity,
  PushSubscriptionEntity,
  PushNotificationEntity,
];
