import { Anchor, Text } from '@mantine/core';
import { memo, useMemo } from 'react';
import { splitLinks } from './message-links';

/**
 * A message's text with its http(s) links clickable, opened in a new tab without handing it this window. A
 * link shows its host in full (see linkLabel); a long host wraps like the rest of the text.
 */
export const MessageText = memo(function MessageText({ text }: { text: string }) {
  const parts = useMemo(() => splitLinks(text), [text]);
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="chat-message-text">
      {parts.map((part, i) =>
        part.kind === 'text' ? (
          part.text
        ) : (
          <Anchor
            key={i}
            href={part.href}
            target="_blank"
            rel="noopener noreferrer"
            title={part.href}
            inherit
            // Left-to-right and isolated: a right-to-left override in the text before it cannot reorder the label.
            dir="ltr"
            style={{ unicodeBidi: 'isolate' }}
            data-testid="chat-message-link"
          >
            {part.label}
          </Anchor>
        ),
      )}
    </Text>
  );
});
