import { Button, Grid, Group, Stack, TextInput, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import type { JobOffer, OfferTermsInput } from '@/api/offer.api';
import { fieldProps, touchAll } from '@/components/form/field-props';
import { SearchSelect } from '@/components/select/SearchSelect';
import { preferencesStore } from '@/features/preferences/preferences.store';
import { intlLocaleOf, languageOf } from '@/i18n/languages';
import { type FormRule, type OfferFormValues, amountRule, deadlineRule, toTermsInput } from '../offer-form';
import { toLocalInput } from '@/components/format/dates';
import { useCurrencies } from '../useCurrencies';

/** A message limit the chat shares (server MESSAGE_MAX_LENGTH). */
const MESSAGE_MAX = 4000;

export interface OfferFormProps {
  /** 'create' adds the first-message field; 'revise' starts from the offer's terms. */
  mode: 'create' | 'revise';
  offer?: JobOffer;
  busy: boolean;
  onSubmit: (terms: OfferTermsInput, message: string) => void;
  onCancel?: () => void;
}

/**
 * Price, optional local price (each with a currency from /assets/config.json), deadline in local time and, when
 * making the offer, an optional first message. Amounts take a decimal point or comma and at most 2 decimals.
 */
export function OfferForm({ mode, offer, busy, onSubmit, onCancel }: OfferFormProps) {
  const { t } = useTranslation();
  const { language } = useSnapshot(preferencesStore);
  const currencies = useCurrencies(language);
  const sameLocal = !offer?.localPrice || (offer.price && offer.localPrice.currency === offer.price.currency && offer.localPrice.amount === offer.price.amount);
  const say = (rule: FormRule | null) => (rule ? t(rule.key, rule.count === undefined ? {} : { count: rule.count }) : null);
  const form = useForm<OfferFormValues>({
    mode: 'controlled',
    initialValues: {
      amount: offer?.price?.amount ?? '',
      // A new offer's price is in the interface locale's currency (spec §9: Polish PLN, English USD).
      currency: offer?.price?.currency ?? languageOf(language).currency,
      localAmount: sameLocal ? '' : (offer?.localPrice?.amount ?? ''),
      localCurrency: sameLocal ? '' : (offer?.localPrice?.currency ?? ''),
      deadline: toLocalInput(offer?.deadline),
      message: '',
    },
    validate: {
      amount: (value, values) => say(amountRule(value, { required: true, decimals: currencies.decimalsOf(values.currency) })),
      currency: (value) => (value ? null : t('FORM.REQUIRED')),
      localAmount: (value, values) => say(amountRule(value, { required: false, decimals: currencies.decimalsOf(values.localCurrency) })),
      localCurrency: (value, values) => (values.localAmount.trim() && !value ? t('FORM.REQUIRED') : null),
      deadline: (value) => say(deadlineRule(value)),
      message: (value) => (value.length > MESSAGE_MAX ? t('OFFERS.FORM.MESSAGE_TOO_LONG', { max: MESSAGE_MAX }) : null),
    },
    validateInputOnChange: true,
  });

  // The local price's currency is the language's suggestion once the config is known (USD meanwhile).
  const { setFieldValue } = form;
  const localCurrency = form.values.localCurrency;
  useEffect(() => {
    if (currencies.loaded && !localCurrency) setFieldValue('localCurrency', currencies.suggested);
  }, [currencies.loaded, currencies.suggested, localCurrency, setFieldValue]);

  const handleSubmit = form.onSubmit(
    (values) => onSubmit(toTermsInput(values), values.message.trim()),
    () => touchAll(form),
  );

  return (
    <form onSubmit={handleSubmit} noValidate data-testid="offer-form" data-mode={mode}>
      <Stack gap="sm">
        <Grid gap="sm">
          <Grid.Col span={{ base: 7, sm: 8 }}>
            <TextInput
              label={t('OFFERS.FORM.PRICE')}
              inputMode="decimal"
              autoComplete="off"
              required
              placeholder={new Intl.NumberFormat(intlLocaleOf(language), { minimumFractionDigits: 2 }).format(0)}
              data-testid="offer-amount"
              {...fieldProps(form, 'amount')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 5, sm: 4 }}>
            <SearchSelect
              label={t('OFFERS.FORM.CURRENCY')}
              aria-label={t('OFFERS.FORM.PRICE_CURRENCY')}
              items={currencies.items}
              required
              allowDeselect={false}
              data-testid="offer-currency"
              {...fieldProps(form, 'currency')}
              value={form.values.currency}
              onChange={(value) => form.setFieldValue('currency', value ?? '')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 7, sm: 8 }}>
            <TextInput
              label={t('OFFERS.FORM.LOCAL_PRICE')}
              description={t('OFFERS.FORM.LOCAL_PRICE_HINT')}
              inputMode="decimal"
              autoComplete="off"
              placeholder={t('OFFERS.FORM.OPTIONAL')}
              data-testid="offer-local-amount"
              {...fieldProps(form, 'localAmount')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 5, sm: 4 }} style={{ alignSelf: 'flex-end' }}>
            <SearchSelect
              label={t('OFFERS.FORM.CURRENCY')}
              aria-label={t('OFFERS.FORM.LOCAL_PRICE_CURRENCY')}
              items={currencies.items}
              allowDeselect={false}
              data-testid="offer-local-currency"
              {...fieldProps(form, 'localCurrency')}
              value={form.values.localCurrency || null}
              onChange={(value) => form.setFieldValue('localCurrency', value ?? '')}
            />
          </Grid.Col>
        </Grid>
        <TextInput
          type="datetime-local"
          label={t('OFFERS.FORM.DEADLINE')}
          description={t('OFFERS.FORM.DEADLINE_HINT')}
          required
          data-testid="offer-deadline"
          {...fieldProps(form, 'deadline')}
        />
        {mode === 'create' ? (
          <Textarea
            label={t('OFFERS.FORM.MESSAGE')}
            placeholder={t('OFFERS.FORM.MESSAGE_HINT')}
            autosize
            minRows={2}
            maxRows={6}
            data-testid="offer-message"
            {...fieldProps(form, 'message')}
          />
        ) : null}
        <Group justify="flex-end" gap="sm">
          {onCancel ? (
            <Button variant="default" onClick={onCancel} disabled={busy} data-testid="offer-cancel">
              {t('OFFERS.FORM.CANCEL')}
            </Button>
          ) : null}
          <Button type="submit" loading={busy} data-testid="offer-submit">
            {mode === 'create' ? t('OFFERS.FORM.SUBMIT') : t('OFFERS.FORM.SAVE_REVISION')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
