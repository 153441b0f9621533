import { describe, expect, it } from 'vitest';
import { EMAIL_REPLY_MARKER } from '@helpdesk/protocol';
import { cutTo, replyText } from './replyText.js';

describe('cutTo', () => {
  it('keeps a text within the limit, the note after it, and never half an emoji', () => {
    expect(cutTo('short', 12, '…')).toBe('short');
    const cut = cutTo(`${'a'.repeat(8)}${'😀'.repeat(5)}`, 12, '…');
    expect(cut).toBe(`${'a'.repeat(8)}\n\n…`);
    expect(cut.length).toBeLessThanOrEqual(12);
    expect(cutTo(`${'a'.repeat(7)}${'😀'.repeat(5)}`, 12, '…')).toBe(`${'a'.repeat(7)}😀\n\n…`);
  });
});

describe('replyText (docs/api.md#threading)', () => {
  it('keeps a customer’s own lines that merely start with "On" and end in "wrote:"', () => {
    const text = 'Hi,\nOn my laptop the app still crashes.\nThe error dialog wrote:\nFatal error 42 in module printer.dll\nPlease advise.';
    expect(replyText(text)).toBe(text);
    // Nor when the next line is blank: it is what follows the blank that counts.
    const spaced = 'On the second floor the printer wrote:\n\nPAPER JAM IN TRAY 2\n\nWhat now?';
    expect(replyText(spaced)).toBe(spaced);
  });

  it('cuts a quote header followed by quoted lines, on one line or wrapped over two or three', () => {
    const quoted = '> Have you tried turning it off and on again?\n> Agent Smith';
    for (const header of [
      'On Mon, 2 Mar 2026 at 09:00, Agent Smith <support@helpdesk.test> wrote:',
      'On Mon, 2 Mar 2026 at 09:00, Agent Smith via HelpDesk <\nsupport@helpdesk.test> wrote:',
      'On Mon, 2 Mar 2026 at 09:00,\nAgent Smith via HelpDesk\n<support@helpdesk.test> wrote:',
      // No date nor address, but quoted text after it (a blank line between).
      'On Monday, Agent Smith wrote:\n',
    ]) {
      expect(replyText(`It works again.\n\n${header}\n${quoted}\n`), header).toBe('It works again.');
    }
  });

  it('cuts a quote header with nothing after it, and one quoted itself (Apple Mail)', () => {
    expect(replyText('See you then.\n\nOn Mon, 2 Mar 2026, Jane wrote:\n\n')).toBe('See you then.');
    expect(replyText('Sounds good.\n\n> On 2 Mar 2026, at 09:00, Agent Smith <support@helpdesk.test> wrote:\n>\n> Try again.')).toBe(
      'Sounds good.',
    );
  });

  it('cuts a header holding a date and an address even when the quote below it is not marked', () => {
    const text = 'Thanks, done.\n\nOn Mon, 2 Mar 2026 at 09:00, Agent Smith <support@helpdesk.test> wrote:\nPlease restart the printer.';
    expect(replyText(text)).toBe('Thanks, done.');
    expect(replyText(`Fine.\n\nOn Mon, 2 Mar 2026, Agent Smith wrote:\n${EMAIL_REPLY_MARKER}\nOld text.`)).toBe('Fine.');
  });

  it('still cuts at our marker and at Outlook’s block, and keeps a reply that is nothing but quote', () => {
    expect(replyText(`New text.\n${EMAIL_REPLY_MARKER}\nOld text.`)).toBe('New text.');
    expect(replyText('Regards\n\nFrom: Agent Smith <support@helpdesk.test>\nSent: Monday\nOld.')).toBe('Regards');
    const onlyQuote = 'On Mon, 2 Mar 2026, Jane <jane@example.test> wrote:\n> Everything.';
    expect(replyText(onlyQuote)).toBe(onlyQuote);
  });
});
