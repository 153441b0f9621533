import { CSAT_RATINGS, MESSAGES, STATUS_LABELS, type TicketStatus } from '@helpdesk/protocol';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * On top of every mail we send: what a reader writes above it is their answer; what is below (our
 * mail, quoted back) is cut when the answer comes in by mail (docs/api.md#email).
 */
export const REPLY_MARKER = '-- Reply above this line --';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);

interface MailLink {
  href: string;
  label: string;
}

/** Plain text plus the same lines as simple HTML; user-written text is always escaped. */
function compose(to: string, subject: string, lines: string[], link: MailLink | MailLink[] = []): MailMessage {
  const links = [link].flat();
  const text = [
    REPLY_MARKER,
    '',
    ...lines,
    ...(links.length > 0 ? ['', ...links.map((l) => `${l.label}: ${l.href}`)] : []),
    '',
    '— HelpDesk System',
  ].join('\n');
  const html = [
    `<p style="color:#888">${escapeHtml(REPLY_MARKER)}</p>`,
    ...lines.map((l) => `<p>${escapeHtml(l)}</p>`),
    ...links.map((l) => `<p><a href="${escapeHtml(l.href)}">${escapeHtml(l.label)}</a></p>`),
    '<p>— HelpDesk System</p>',
  ].join('\n');
  return { to, subject, text, html };
}

export const passwordResetMail = ({ to, name, link }: { to: string; name: string; link: string }) =>
  compose(
    to,
    'Reset your HelpDesk System password',
    [
      `Hello ${name},`,
      'We received a request to reset your password. The link below works once and expires in 1 hour.',
      'If you did not ask for this, you can ignore this email.',
    ],
    { href: link, label: 'Reset your password' },
  );

interface TicketMailInput {
  to: string;
  name: string;
  ticket: { id: number; title: string };
  ticketUrl: string;
}

export const statusChangedMail = ({
  to,
  name,
  ticket,
  ticketUrl,
  from,
  status,
  by,
}: TicketMailInput & { from: TicketStatus; status: TicketStatus; by: string }) =>
  compose(
    to,
    `Ticket #${ticket.id} is now ${STATUS_LABELS[status]}`,
    [
      `Hello ${name},`,
      `${by} changed the status of your ticket #${ticket.id} "${ticket.title}" from ${STATUS_LABELS[from]} to ${STATUS_LABELS[status]}.`,
    ],
    { href: ticketUrl, label: 'View your ticket' },
  );

/** A staff reply, as the mail the owner answers by replying (docs/api.md#email). */
export const staffReplyMail = ({ to, name, ticket, ticketUrl, by, content }: TicketMailInput & { by: string; content: string }) =>
  compose(to, `Re: ${ticket.title} [#${ticket.id}]`, [`Hello ${name},`, `${by} replied to your ticket #${ticket.id}:`, content], {
    href: ticketUrl,
    label: 'View your ticket',
  });

/** To staff: a note mentioned them, or someone else assigned them a ticket. */
export const staffNoticeMail = ({
  to,
  name,
  ticket,
  ticketUrl,
  kind,
  by,
  excerpt,
}: TicketMailInput & { kind: 'mention' | 'assigned' | 'sla_warning' | 'sla_breached'; by: string; excerpt: string }) =>
  compose(
    to,
    kind === 'mention'
      ? `${by} mentioned you on ticket #${ticket.id}`
      : kind === 'assigned'
        ? `Ticket #${ticket.id} was assigned to you`
        : `Ticket #${ticket.id}: ${kind === 'sla_warning' ? 'a service level deadline is near' : 'a service level deadline was missed'}`,
    kind === 'mention'
      ? [`Hello ${name},`, `${by} mentioned you on ticket #${ticket.id} "${ticket.title}":`, excerpt]
      : kind === 'assigned'
        ? [`Hello ${name},`, `${by} assigned ticket #${ticket.id} "${ticket.title}" to you.`]
        : [`Hello ${name},`, `Ticket #${ticket.id} "${ticket.title}" from ${by}:`, excerpt],
    { href: ticketUrl, label: 'Open the ticket' },
  );

/**
 * After a resolution, to the ticket's owner: one link per rating, each opening the survey page with
 * that answer chosen (docs/api.md#satisfaction-surveys). Opening one records nothing; the page sends.
 */
export const csatSurveyMail = ({
  to,
  name,
  ticket,
  surveyUrl,
  days,
}: Omit<TicketMailInput, 'ticketUrl'> & { surveyUrl: string; days: number }) =>
  compose(
    to,
    MESSAGES.csat.mailSubject(ticket.id),
    [
      `Hello ${name},`,
      `Your ticket #${ticket.id} "${ticket.title}" was resolved. ${MESSAGES.csat.question} Choose an answer below; you can add a comment before you send it.`,
      `The links work for ${days} days.`,
    ],
    CSAT_RATINGS.map((rating) => ({ href: `${surveyUrl}?rating=${rating}`, label: MESSAGES.csat.ratingLabels[rating] })),
  );
