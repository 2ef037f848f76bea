import { Button, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { FileTile } from '@/components/file-preview/FileTile';
import { SearchMultiSelect, SearchSelect } from '@/components/select/SearchSelect';
import type { SelectionItem } from '@/components/select/selection';
import { type TagItem, TagInput } from '@/components/tag-input/TagInput';
import { type UserSearchResult, UserSearchDialog } from '@/components/user-search/UserSearchDialog';

// The capsule is for anonymous visitors, so its demos search sample data instead of the API.
const COUNTRIES: SelectionItem[] = [
  { value: 'pl', label: 'Poland', prefix: '🇵🇱', surfix: 'PLN', group: 'Europe' },
  { value: 'de', label: 'Germany', prefix: '🇩🇪', surfix: 'EUR', group: 'Europe' },
  { value: 'us', label: 'United States', prefix: '🇺🇸', surfix: 'USD', description: 'default suggested currency', group: 'America' },
  { value: 'in', label: 'India', prefix: '🇮🇳', surfix: 'INR', group: 'Asia' },
];
const TAGS: TagItem[] = ['react', 'redux', 'rust', 'ruby', 'nestjs', 'postgres'].map((v, i) => ({ key: String(i), value: v, label: v }));
const PEOPLE: UserSearchResult[] = [
  { code: 'U_ada', name: 'Ada', surname: 'Lovelace' },
  { code: 'U_alan', name: 'Alan', surname: 'Turing' },
  { code: 'U_grace', name: 'Grace', surname: 'Hopper' },
];
const later = <T,>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 150));
const matching = <T extends { label?: string; name?: string; surname?: string }>(list: T[], term: string) =>
  list.filter((x) => `${x.label ?? ''} ${x.name ?? ''} ${x.surname ?? ''}`.toLowerCase().includes(term.toLowerCase()));

export function SelectDemo() {
  const [one, setOne] = useState<string | null>(null);
  const [remote, setRemote] = useState<string | null>(null);
  const [many, setMany] = useState<string[]>(['pl']);
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }}>
      <SearchSelect label="static items" items={COUNTRIES} value={one} onChange={setOne} />
      <SearchSelect label="remote search (300 ms)" search={(term) => later(matching(COUNTRIES, term))} value={remote} onChange={setRemote} />
      <SearchMultiSelect label="multi-select" items={COUNTRIES} value={many} onChange={setMany} />
    </SimpleGrid>
  );
}

export function TagDemo() {
  const [tags, setTags] = useState<string[]>(['nestjs']);
  return (
    <TagInput
      label="tags (suggested for terms over 1 character)"
      value={tags}
      onChange={setTags}
      search={(term) => later(TAGS.filter((t) => t.value.includes(term)))}
    />
  );
}

export function UserSearchDemo() {
  const [opened, setOpened] = useState(false);
  const [picked, setPicked] = useState<UserSearchResult[]>([]);
  return (
    <Group>
      <Button variant="light" onClick={() => setOpened(true)} data-testid="capsule-user-search-open">
        find people
      </Button>
      <Text size="sm">
        picked → <Code>{picked.map((u) => u.name).join(', ') || '—'}</Code>
      </Text>
      <UserSearchDialog
        opened={opened}
        onClose={() => setOpened(false)}
        search={(query) => later(matching(PEOPLE, query))}
        onConfirm={(users) => {
          setPicked(users);
          setOpened(false);
        }}
      />
    </Group>
  );
}

/** A PNG drawn on a canvas, so the image variants have real bytes without a server file. */
function useSamplePng(): File | null {
  const [file, setFile] = useState<File | null>(null);
  useEffect(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 200;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    const gradient = ctx.createLinearGradient(0, 0, 320, 200);
    gradient.addColorStop(0, '#228be6');
    gradient.addColorStop(1, '#be4bdb');
    ctx.fillStyle = gradient;
    ctx.fillRect(0, 0, 320, 200);
    canvas.toBlob((blob) => blob && setFile(new File([blob], 'sample-gradient.png', { type: 'image/png' })));
  }, []);
  return file;
}

export function FilePreviewDemo() {
  const png = useSamplePng();
  const text = new File(['A plain text file, shown with the unknown-kind icon.\n'.repeat(40)], 'meeting-notes-for-the-quarterly-review.txt', {
    type: 'text/plain',
  });
  return (
    <Stack>
      <Group align="flex-start">
        {png ? <FileTile file={png} /> : null}
        <FileTile file={text} />
      </Group>
      <Group align="flex-start">
        {png ? <FileTile file={png} variant="icon" /> : null}
        <FileTile file={text} variant="icon" />
        <FileTile />
      </Group>
    </Stack>
  );
}
