import { Button, Card, Code, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldProps } from '@/components/form/field-props';
import { combine, rules } from '@/components/form/form-messages';
import { formatFileSize, formatPrice } from '@/components/format/numbers';
import { shortenLink, truncate } from '@/components/format/text';
import { CreepingProgress, LineLoader, Spinner } from '@/components/loaders/loaders';
import { notify } from '@/components/notifications/notify';
import { presenceOf } from '@/components/presence/presence';
import { UserAvatar } from '@/components/user-avatar/UserAvatar';
import { PremiumPlaceholder } from '@/features/placeholders/PremiumPlaceholder';
import { usePageHeader } from '@/features/shell/toolbar.store';
import { FilePreviewDemo, SelectDemo, TagDemo, UserSearchDemo } from './CapsuleKitDemos';

function Showcase({ name, usage, children }: { name: string; usage: string; children: ReactNode }) {
  return (
    <Card withBorder padding="lg" radius="md" data-testid={`capsule-${name}`}>
      <Title order={4}>{name}</Title>
      <Text size="sm" c="dimmed" mb="md">
        {usage}
      </Text>
      {children}
    </Card>
  );
}

function NotificationsDemo() {
  const { t } = useTranslation();
  const [answer, setAnswer] = useState<string>('—');
  return (
    <Group>
      <Button color="green" variant="light" onClick={() => notify.success(t('CAPSULE.SAMPLE_SUCCESS'))}>
        success
      </Button>
      <Button color="red" variant="light" onClick={() => notify.error(t('CAPSULE.SAMPLE_ERROR'))}>
        error
      </Button>
      <Button variant="light" onClick={() => notify.info(t('CAPSULE.SAMPLE_INFO'))}>
        info
      </Button>
      <Button variant="default" onClick={async () => setAnswer(String(await notify.confirm(t('CAPSULE.SAMPLE_CONFIRM'))))}>
        confirm
      </Button>
      <Text size="sm">
        confirm → <Code>{answer}</Code>
      </Text>
    </Group>
  );
}

function FormDemo() {
  const { t } = useTranslation();
  const form = useForm({
    initialValues: { email: '', title: '' },
    validateInputOnChange: true,
    validateInputOnBlur: true,
    validate: { email: combine(rules.required(), rules.email()), title: combine(rules.required(), rules.minLength(6)) },
  });
  return (
    <Group grow align="flex-start">
      <TextInput label={t('AUTH.EMAIL')} {...fieldProps(form, 'email')} />
      <TextInput label={t('CAPSULE.TITLE_FIELD')} {...fieldProps(form, 'title')} />
    </Group>
  );
}

/** The shared UI kit with its variants and a usage note each (localhost, anonymous users only). */
export function CapsulePage() {
  const { t } = useTranslation();
  usePageHeader(t('CAPSULE.TITLE'), t('CAPSULE.SUBTITLE'));
  const sizes = [512, 1536, 5 * 1024 ** 2, 3.25 * 1024 ** 3, 2 * 1024 ** 4, 1024 ** 5];
  return (
    <Stack maw={960} mx="auto" data-testid="capsule">
      <Title order={2}>{t('CAPSULE.TITLE')}</Title>
      <Showcase name="notify" usage="notify.success|error|info(text) stays 15 s; await notify.confirm(text) → true/false, 60 s; 400 ms fade.">
        <NotificationsDemo />
      </Showcase>
      <Showcase
        name="loaders"
        usage="<Spinner/> for a section, <CreepingProgress done={…}/> creeps to 90 % until done, <LineLoader/> under a bar; <FullPageLoader/> covers the app until the user check."
      >
        <Stack>
          <Spinner size="sm" />
          <CreepingProgress />
          <LineLoader />
        </Stack>
      </Showcase>
      <Showcase
        name="UserAvatar"
        usage="<UserAvatar name surname url presence={presenceOf(minutes, online)}/>: green ≤ 1 min, yellow ≤ 60 min ('inactive N minutes'), red beyond; a closed tab alone changes nothing."
      >
        <Group>
          <UserAvatar name="Ada" surname="Lovelace" presence={presenceOf(0)} />
          <UserAvatar name="Alan" surname="Turing" presence={presenceOf(1)} />
          <UserAvatar name="Grace" surname="Hopper" presence={presenceOf(5)} />
          <UserAvatar name="Edsger" surname="Dijkstra" presence={presenceOf(61)} />
          <UserAvatar name="Barbara" surname="Liskov" presence={presenceOf(2, false)} />
          <UserAvatar name="No" surname="Presence" />
        </Group>
      </Showcase>
      <Showcase
        name="form fields"
        usage="fieldProps(form, path) shows rules.required / minLength(n) / email messages only when the field is invalid and dirty or touched."
      >
        <FormDemo />
      </Showcase>
      <Showcase
        name="SearchSelect / SearchMultiSelect"
        usage="<SearchSelect items|search value onChange/>: static items filter as you type; a search(term) prop is called 300 ms after typing stops. Texts: 'Not selected', 'Type to filter', 'No results'. Items: value, label, prefix, surfix, description, group. The list is at most 30vh high."
      >
        <SelectDemo />
      </Showcase>
      <Showcase
        name="TagInput"
        usage="<TagInput value onChange search/>: free tags (Enter or comma); search(term) suggests tags for terms longer than 1 character, 300 ms after typing stops."
      >
        <TagDemo />
      </Showcase>
      <Showcase
        name="UserSearchDialog"
        usage="<UserSearchDialog opened onClose onConfirm(users) search(query) excludeCodes/>: calls search (the app's searches POST /api/user/search) only for queries longer than 3 characters, 200 ms after typing stops; checked people stay checked across queries."
      >
        <UserSearchDemo />
      </Showcase>
      <Showcase
        name="FileTile / FilePreviewDialog"
        usage="<FileTile file|code variant='tile'|'icon'/>: png/jpg/jpeg/gif show a thumbnail (loaded with the token as an object URL), other files an icon; sizes by 1024; codes are described through one POST /api/File/List per 300 ms (the app's FileAccessProvider); a click opens the preview dialog. Without file or code: 'File or code is required'."
      >
        <FilePreviewDemo />
      </Showcase>
      <Showcase
        name="formatting"
        usage="truncate(text, 40|100) for toolbar headers; shortenLink(path) over 30 chars → first 12 + last 12; formatFileSize(bytes) by 1024; formatPrice(amount, currency) ≤ 2 decimals, USD by default."
      >
        <Table withTableBorder withColumnBorders>
          <Table.Tbody>
            <Table.Tr>
              <Table.Td>truncate(…, 40)</Table.Td>
              <Table.Td>{truncate('A header that is far too long to fit into the toolbar', 40)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>shortenLink</Table.Td>
              <Table.Td>{shortenLink('/documents/invoices/2025/very-long-file-name.pdf')}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>formatFileSize</Table.Td>
              <Table.Td>{sizes.map(formatFileSize).join(' · ')}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>formatPrice</Table.Td>
              <Table.Td>
                {formatPrice(1234.5678, 'PLN', 'pl-PL')} · {formatPrice(99.9, null)}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      </Showcase>
      <Showcase name="PremiumPlaceholder" usage="<PremiumPlaceholder titleKey=…/>: the one screen every premium route shows.">
        <PremiumPlaceholder titleKey="MENU.COURSES" setsHeader={false} />
      </Showcase>
    </Stack>
  );
}
