import { Badge, type BadgeProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { offerStatusLook } from '../offer-status';

/** An offer's status in the spec's colours (section 4). */
export function OfferStatusBadge({ status, ...rest }: { status: number } & Omit<BadgeProps, 'color' | 'children'>) {
  const { t } = useTranslation();
  const look = offerStatusLook(status);
  return (
    <Badge color={look.color} variant="light" data-testid="offer-status" data-status={status} style={{ flexShrink: 0 }} {...rest}>
      {t(look.label)}
    </Badge>
  );
}
