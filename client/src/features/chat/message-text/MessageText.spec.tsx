import { screen } from '@testing-library/react';
import { renderWithMantine } from '../../../../jest/render';
import { MessageText } from './MessageText';

describe('MessageText', () => {
  it('renders a link with its host in full, the whole address as its title, opened in a new tab', () => {
    const href = 'https://paypal.com.account-verification.evil.example/a/very/long/path/to/the/signin/page';
    renderWithMantine(<MessageText text={`Log in here: ${href} now`} />);
    const link = screen.getByTestId('chat-message-link');
    expect(link.textContent).toBe('paypal.com.account-verification.evil.example/a/very/long…/signin/page');
    expect(link.getAttribute('href')).toBe(href);
    expect(link.getAttribute('title')).toBe(href);
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('isolates the label left-to-right, so a right-to-left override in the text around it cannot turn it around', () => {
    renderWithMantine(<MessageText text={'\u202e see https://evil.example/moc.lapyap'} />);
    const link = screen.getByTestId('chat-message-link');
    expect(link.getAttribute('dir')).toBe('ltr');
    expect(link.style.unicodeBidi).toBe('isolate');
    expect(link.textContent).toBe('evil.example/moc.lapyap');
  });

  it('shows a look-alike international host in its xn-- form', () => {
    renderWithMantine(<MessageText text={'https://\u0430\u0440\u0440le.com/login'} />);
    expect(screen.getByTestId('chat-message-link').textContent).toBe('xn--le-6kc8da.com/login');
  });
});
