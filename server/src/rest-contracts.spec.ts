import type { LoginResponseDto } from './modules/auth/dto/auth-response.dto';
import type {
  ChatGroupDto,
  ChatGroupPageDto,
  ChatMessageDto,
  ChatParticipantDto,
  ChatUserDto,
  MessagePageDto,
  ReadResultDto,
  StartChatResultDto,
} from './modules/chat/dto/chat-response.dto';
import type { FileDto } from './modules/files/dto/file.dto';
import type { CurrentInstanceDto, InstanceDto } from './modules/instances/dto/instance-response.dto';
import type { JobDto, JobPageDto, JobRoleDto, JobVersionResponseDto } from './modules/marketplace/dto/job.dto';
import type { MoneyDto } from './modules/marketplace/dto/money.dto';
import type { OfferDto, OfferEventDto, OfferJobDto, PartyPaymentDto, PaymentDto } from './modules/marketplace/dto/offer.dto';
import type { ClientConfigDto, CurrencyDto, LanguageConfigDto, TimezoneDto } from './modules/misc/dto/misc.dto';
import type { BusyRoomDto } from './modules/moderation/dto/moderation.dto';
import type { MeResponseDto, UserResponseDto, UserStatusDto } from './modules/users/dto/user-response.dto';
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
import type { FileResponse } from '#shared/contracts/rest/files';
import type { CurrentInstanceResponse, InstanceResponse } from '#shared/contracts/rest/instances';
import type {
  JobResponse,
  JobPageResponse,
  JobRoleResponse,
  JobVersionResponse,
  MoneyResponse,
  OfferEventResponse,
  OfferJobResponse,
  OfferResponse,
  PartyPaymentResponse,
  PaymentResponse,
} from '#shared/contracts/rest/marketplace';
import type { ClientConfigResponse, CurrencyResponse, LanguageConfigResponse } from '#shared/contracts/rest/misc';
import type { BusyRoomResponse } from '#shared/contracts/rest/moderation';
import type { LoginResponse, MeResponse, UserResponse, UserStatusResponse, UserTimezone } from '#shared/contracts/rest/users';

/**
 * The DTO classes implement these contracts, which catches a field missing or typed otherwise. This catches
 * the other drift: a field a DTO answers with that the contract (and so the client) does not know.
 */
type SameFields<Dto, Contract> = [Exclude<keyof Dto, keyof Contract>, Exclude<keyof Contract, keyof Dto>] extends [never, never] ? true : false;

const sameFields: true[] = [
  true satisfies SameFields<UserResponseDto, UserResponse>,
  true satisfies SameFields<MeResponseDto, MeResponse>,
  true satisfies SameFields<UserStatusDto, UserStatusResponse>,
  true satisfies SameFields<LoginResponseDto, LoginResponse>,
  true satisfies SameFields<CurrentInstanceDto, CurrentInstanceResponse>,
  true satisfies SameFields<InstanceDto, InstanceResponse>,
  true satisfies SameFields<FileDto, FileResponse>,
  true satisfies SameFields<BusyRoomDto, BusyRoomResponse>,
  true satisfies SameFields<MoneyDto, MoneyResponse>,
  true satisfies SameFields<JobVersionResponseDto, JobVersionResponse>,
  true satisfies SameFields<JobDto, JobResponse>,
  true satisfies SameFields<JobPageDto, JobPageResponse>,
  true satisfies SameFields<JobRoleDto, JobRoleResponse>,
  true satisfies SameFields<OfferJobDto, OfferJobResponse>,
  true satisfies SameFields<OfferDto, OfferResponse>,
  true satisfies SameFields<OfferEventDto, OfferEventResponse>,
  true satisfies SameFields<PaymentDto, PaymentResponse>,
  true satisfies SameFields<PartyPaymentDto, PartyPaymentResponse>,
  true satisfies SameFields<TimezoneDto, UserTimezone>,
  true satisfies SameFields<LanguageConfigDto, LanguageConfigResponse>,
  true satisfies SameFields<CurrencyDto, CurrencyResponse>,
  true satisfies SameFields<ClientConfigDto, ClientConfigResponse>,
  true satisfies SameFields<ChatUserDto, ChatUserResponse>,
  true satisfies SameFields<ChatParticipantDto, ChatParticipantResponse>,
  true satisfies SameFields<ChatMessageDto, ChatMessageResponse>,
  true satisfies SameFields<ChatGroupDto, ChatGroupResponse>,
  true satisfies SameFields<ChatGroupPageDto, ChatGroupPageResponse>,
  true satisfies SameFields<StartChatResultDto, StartChatResponse>,
  true satisfies SameFields<MessagePageDto, MessagePageResponse>,
  true satisfies SameFields<ReadResultDto, ReadResultResponse>,
];

describe('REST contracts', () => {
  it('name exactly the fields the response DTOs answer with (checked by the typecheck)', () => {
    expect(sameFields.every(Boolean)).toBe(true);
  });
});
