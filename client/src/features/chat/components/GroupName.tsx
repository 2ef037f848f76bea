import { Badge, Box, Group, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ChatGroup } from '@/api/chat.api';
import { groupTitle } from '../chat-logic';

/** The group name rule of the spec: name, else up to 2 other people and a '+N' tag listing everyone, else 'No users'. */
export function GroupName({ group, meCode, size = 'sm', fw = 600 }: { group: ChatGroup; meCode: string | null; size?: string; fw?: number }) {
  const { t } = useTranslation();
  const name = groupTitle(group, meCode);
  if (name.empty)
    return (
      <Text size={size} fw={fw} c="dimmed" data-testid="group-name">
        {t('CHAT.NO_USERS')}
      </Text>
    );
  if (name.subtitle !== undefined)
    return (
      <Box miw={0}>
        <Text size={size} fw={fw} truncate data-testid="group-name">
          {name.title}
        </Text>
        <Text size="xs" c="dimmed" truncate data-testid="group-name-people">
          {name.subtitle}
        </Text>
      </Box>
    );
  return (
    <Group gap={6} wrap="nowrap" miw={0}>
      <Text size={size} fw={fw} truncate data-testid="group-name">
        {name.title}
      </Text>
      {name.more > 0 ? (
        <Tooltip label={name.everyone.join(', ')} multiline maw={300} withArrow>
          <Badge size="sm" variant="light" data-testid="group-name-more">
            +{name.more}
          </Badge>
        </Tooltip>
      ) : null}
    </Group>
  );
}
