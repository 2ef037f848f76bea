import { TranslationModule } from '../translation/translation.module';
import { Module } from '@nestjs/common';
import { RateLimitModule } from '../../common/rate-limit/rate-limit.module';
import { ChatAccessModule } from '../chat/chat-access.module';
import { ChatModule } from '../chat/chat.module';
import { IdempotencyStore } from './idempotency.store';
import { JobOffersController } from './job-offers.controller';
import { JobRolesService } from './job-roles.service';
import { JobsController } from './jobs.controller';
import { JobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';
import { MarketplaceChatTargets } from './marketplace-chat-targets';
import { OfferTransitionsService } from './offer-transitions.service';
import { OffersController } from './offers.controller';
import { OffersRepository } from './offers.repository';
import { OffersService } from './offers.service';
import { ManualPaymentProvider } from './payments/manual-payment.provider';
import { PAYMENT_PROVIDERS } from './payments/payment-provider';
import { PaymentsRepository } from './payments/payments.repository';
import { PaymentsService } from './payments/payments.service';
import { OfferTimerDueListener } from './timers/offer-timer-due.listener';
import { OfferTimerSettingsController } from './timers/offer-timer-settings.controller';
import { OfferTimerSettingsService } from './timers/offer-timer-settings.service';
import { OfferTimersService } from './timers/offer-timers.service';

/** Jobs, job offers and their status machine, payments. */
@Module({
  imports: [ChatModule, ChatAccessModule, RateLimitModule, TranslationModule],
  // Job-offers first: its GET job-offers/for-payment is static; offers' static offers/* routes come before :jobId ones.
  controllers: [OfferTimerSettingsController, JobOffersController, JobsController, OffersController],
  providers: [
    JobsRepository,
    JobsService,
    MarketplaceChatTargets,
    JobRolesService,
    OffersRepository,
    OffersService,
    OfferTransitionsService,
    IdempotencyStore,
    PaymentsRepository,
    PaymentsService,
    ManualPaymentProvider,
    // Timers: the admin's durations, and the due timers the worker hands over.
    OfferTimerSettingsService,
    OfferTimersService,
    OfferTimerDueListener,
    { provide: PAYMENT_PROVIDERS, useFactory: (manual: ManualPaymentProvider) => [manual], inject: [ManualPaymentProvider] },
  ],
  exports: [OffersService],
})
export class MarketplaceModule {}
