import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconCalendar, IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { JobOffer } from '@/api/offer.api';
import { formatDateTime } from '@/components/format/dates';
import { formatMoney } from '@/components/format/numbers';
import { UserAvatar } from '@/components/user-avatar/UserAvatar';
import { OfferStatusBadge } from '@/features/offers/components/OfferStatusBadge';
import { usePresence } from '@/realtime/usePresence';
import { toJobOffer } from '@/routes/paths';
import { usePeople } from '../hooks/usePeople';

/** The customer's view of a job's offers: provider (avatar, presence), price, deadline, status; each opens the offer. */
export function JobOffersSection({ jobCode, offers, locale }: { jobCode: string; offers: readonly JobOffer[] | undefined; locale: string }) {
  const { t } = useTranslation();
  const providers = (offers ?? []).map((o) => o.providerCode);
  const people = usePeople(providers);
  const presence = usePresence(providers);

  return (
    <Stack gap="sm" component="section" aria-labelledby="job-offers-title" data-testid="job-offers">
      <Title order={3} fz="h4" id="job-offers-title">
        {t('JOBS.OFFERS_TITLE', { count: offers?.length ?? 0 })}
      </Title>
      {offers && offers.length === 0 ? (
        <Text c="dimmed" size="sm" data-testid="job-offers-empty">
          {t('JOBS.OFFERS_EMPTY')}
        </Text>
      ) : null}
      {(offers ?? []).map((offer) => {
        const person = people[offer.providerCode];
        const name = person ? `${person.name} ${person.surname}`.trim() : t('JOBS.PROVIDER');
        const price = formatMoney(offer.price, locale);
        const local = offer.localPrice && offer.price && offer.localPrice.currency !== offer.price.currency ? formatMoney(offer.localPrice, locale) : '';
        return (
          <Card key={offer.code} withBorder radius="md" padding="sm" data-testid={`job-offer-row-${offer.code}`} data-code={offer.code}>
            <Group justify="space-between" wrap="wrap" gap="sm">
              <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                <UserAvatar name={person?.name ?? '?'} surname={person?.surname} url={person?.avatar?.url} presence={presence[offer.providerCode]} />
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text fw={600} truncate="end" data-testid="job-offer-provider">
                    {name}
                  </Text>
                  <Group gap={4} wrap="nowrap" c="dimmed">
                    <IconCalendar size={14} aria-hidden />
                    <Text size="sm" data-testid="job-offer-deadline">
                      {offer.deadline ? formatDateTime(offer.deadline, locale) : t('JOBS.NO_DEADLINE')}
                    </Text>
                  </Group>
                </Stack>
              </Group>
              <Group gap="sm" wrap="wrap" justify="flex-end">
                <Stack gap={0} align="flex-end">
                  <Text fw={600} data-testid="job-offer-price">
                    {price || t('JOBS.NO_PRICE')}
                  </Text>
                  {local ? (
                    <Text size="xs" c="dimmed" data-testid="job-offer-local-price">
                      {local}
                    </Text>
                  ) : null}
                </Stack>
                <OfferStatusBadge status={offer.status} data-testid="job-offer-status" />
                <Button
                  component={Link}
                  to={toJobOffer(jobCode, offer.code)}
                  size="compact-sm"
                  variant="light"
                  rightSection={<IconChevronRight size={14} aria-hidden />}
                  aria-label={t('JOBS.OPEN_OFFER_OF', { name })}
                  data-testid="job-offer-open"
                >
                  {t('JOBS.OPEN_OFFER')}
                </Button>
              </Group>
            </Group>
          </Card>
        );
      })}
    </Stack>
  );
}
