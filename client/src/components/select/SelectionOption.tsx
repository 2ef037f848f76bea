import { Group, Stack, Text } from '@mantine/core';
import type { SelectionItem } from './selection';

/** One option: prefix, label, surfix, and the description below. */
export function SelectionOption({ item }: { item: SelectionItem | undefined }) {
  if (!item) return null;
  return (
    <Stack gap={0}>
      <Group gap={6} wrap="nowrap">
        {item.prefix ? (
          <Text size="sm" c="dimmed">
            {item.prefix}
          </Text>
        ) : null}
        <Text size="sm">{item.label}</Text>
        {item.surfix ? (
          <Text size="sm" c="dimmed">
            {item.surfix}
          </Text>
        ) : null}
      </Group>
      {item.description ? (
        <Text size="xs" c="dimmed">
          {item.description}
        </Text>
      ) : null}
    </Stack>
  );
}
