import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeServer } from '../../test-utils/fakeServer';
import { fakeUploads } from '../../test-utils/fakeUploads';
import { renderApp } from '../../test-utils/renderApp';
import { aComment, aDetail, agent, allowForLazyPages, aTicket, detailBody, owner, verified } from '../../test-utils/ticketFixtures';

allowForLazyPages();
// Whole pages with lazy chunks and typed text: slow on a busy machine, not slow code.
vi.setConfig({ testTimeout: 30_000 });
afterEach(() => vi.unstubAllGlobals());

const png = (name = 'screen.png') => new File([new Uint8Array(2048)], name, { type: 'image/png' });
const text = (name: string, size = 10) => new File(['x'.repeat(size)], name, { type: 'text/plain' });
const fileInput = () => screen.getByLabelText('Attach files', { selector: 'input' });
const pending = () => screen.getByRole('list', { name: 'Files to send' });

async function openTicket(user = owner, routes: Parameters<typeof fakeServer>[0] = {}) {
  const server = fakeServer({ ...verified(user), 'GET /tickets/7': detailBody(aDetail()), ...routes });
  renderApp('/ticket/7', { user });
  await screen.findByRole('heading', { name: /Printer is on fire/ });
  return server;
}

const sentComment = (body: unknown) => ({
  status: 201,
  body: { success: true, comment: aComment({ id: 5, content: (body as { content: string }).content }) },
});

describe('attaching files to a comment', () => {
  it('uploads picked files with progress, removes one, and sends the rest with the comment', async () => {
    const uploads = fakeUploads();
    const server = await openTicket(owner, { 'POST /tickets/7/comments': ({ body }) => sentComment(body) });
    const user = userEvent.setup();

    await user.upload(fileInput(), [png(), text('log.txt', 3000)]);
    expect(uploads.map((u) => u.file.name)).toEqual(['screen.png', 'log.txt']);
    expect(uploads[0]!.url).toBe('/api/uploads');
    expect(uploads[0]!.authorization).toMatch(/^Bearer /);
    const rows = within(pending()).getAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual([expect.stringContaining('screen.png2 KB'), expect.stringContaining('log.txt2.9 KB')]);

    uploads[0]!.progress(0.5);
    expect(screen.getByRole('progressbar', { name: 'screen.png: Uploading 50%' })).toHaveAttribute('aria-valuenow', '50');
    await uploads[0]!.succeed({ id: 41, filename: 'screen.png', size: 2048, contentType: 'image/png' });
    expect(within(rows[0]!).getByText('Uploaded')).toBeInTheDocument();

    // Removing a file still going up stops its upload.
    await user.click(screen.getByRole('button', { name: 'Remove log.txt' }));
    expect(uploads[1]!.aborted).toBe(true);
    expect(within(pending()).getAllByRole('listitem')).toHaveLength(1);

    await user.type(screen.getByRole('textbox', { name: 'Add a comment' }), 'Here is the screenshot');
    await user.click(screen.getByRole('button', { name: 'Add Comment' }));
    await waitFor(() => expect(server.calls.find((c) => c.key === 'POST /tickets/7/comments')).toBeDefined());
    expect(server.calls.find((c) => c.key === 'POST /tickets/7/comments')!.body).toEqual({
      content: 'Here is the screenshot',
      attachmentIds: [41],
    });
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Files to send' })).not.toBeInTheDocument());
  });

  it('takes files dropped on the form and images pasted into the box', async () => {
    const uploads = fakeUploads();
    await openTicket();
    const box = screen.getByRole('textbox', { name: 'Add a comment' });
    const form = box.closest('form')!;

    fireEvent.dragOver(form, { dataTransfer: { types: ['Files'], files: [] } });
    expect(screen.getByText('Drop files here to attach them')).toBeInTheDocument();
    fireEvent.drop(form, { dataTransfer: { types: ['Files'], files: [text('dropped.txt')] } });
    expect(screen.queryByText('Drop files here to attach them')).not.toBeInTheDocument();

    fireEvent.paste(box, { clipboardData: { files: [png('image.png')], types: ['Files'] } });
    expect(uploads.map((u) => u.file.name)).toEqual(['dropped.txt', 'image.png']);
    expect(within(pending()).getAllByRole('listitem')).toHaveLength(2);
  });

  it("shows the server's refusal on the file and waits for uploads before sending", async () => {
    const uploads = fakeUploads();
    const server = await openTicket();
    const user = userEvent.setup();
    await user.upload(fileInput(), [text('huge.bin'), text('slow.txt')]);
    await uploads[0]!.fail(413, 'Each file can be at most 25 MB');
    expect(within(pending()).getByRole('alert')).toHaveTextContent('Each file can be at most 25 MB');

    await user.type(screen.getByRole('textbox', { name: 'Add a comment' }), 'Sent too early');
    await user.click(screen.getByRole('button', { name: 'Add Comment' }));
    expect(await screen.findByText('Wait until the files have finished uploading.')).toBeInTheDocument();
    expect(server.calls.some((c) => c.key.startsWith('POST'))).toBe(false);
  });

  it('sends files with a staff reply from the composer', async () => {
    const uploads = fakeUploads();
    const server = await openTicket(agent, {
      'GET /tickets/7': detailBody(aDetail({ assignedAgent: { id: agent.id, name: agent.name } })),
      'POST /tickets/7/comments': ({ body }) => sentComment(body),
      'GET /users/staff': { body: { success: true, staff: [] } },
      'GET /canned-responses': { body: { success: true, cannedResponses: [] } },
    });
    const user = userEvent.setup();
    await user.upload(fileInput(), [png('fix.png')]);
    await uploads[0]!.succeed({ id: 77, filename: 'fix.png', size: 2048, contentType: 'image/png' });
    await user.type(screen.getByTestId('composer'), 'Fixed, see the picture');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(server.calls.find((c) => c.key === 'POST /tickets/7/comments')).toBeDefined());
    expect(server.calls.find((c) => c.key === 'POST /tickets/7/comments')!.body).toMatchObject({
      content: 'Fixed, see the picture',
      attachmentIds: [77],
    });
  });
});

describe('files in the thread', () => {
  it('lists each file with its size, previews images, and saves a file when clicked', async () => {
    const createObjectURL = vi.fn((blob: Blob) => `blob:preview-${blob.size}`);
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const server = await openTicket(owner, {
      'GET /tickets/7': detailBody(
        aDetail({
          attachments: [{ id: 3, filename: 'report.pdf', size: 1_572_864, contentType: 'application/pdf' }],
          comments: [
            aComment({
              attachments: [
                { id: 5, filename: 'photo.png', size: 2048, contentType: 'image/png' },
                { id: 6, filename: 'logo.svg', size: 512, contentType: 'image/svg+xml' },
              ],
            }),
          ],
        }),
      ),
      'GET /attachments/5': { body: { png: 'bytes' } },
      'GET /attachments/3': { body: { pdf: 'bytes' } },
    });

    const comment = screen.getByTestId('comment');
    const files = within(comment).getByRole('list', { name: 'Attached files' });
    expect(within(files).getByRole('button', { name: /^Download\s*photo\.png\s*2 KB$/ })).toBeInTheDocument();
    expect(within(files).getByRole('button', { name: /^Download\s*logo\.svg\s*512 bytes$/ })).toBeInTheDocument();
    await waitFor(() => expect(files.querySelector('img')).toHaveAttribute('src', expect.stringMatching(/^blob:preview-/)));
    // Only raster images are previewed: never the SVG.
    expect(files.querySelectorAll('img')).toHaveLength(1);
    expect(server.calls.filter((c) => c.key.startsWith('GET /attachments/')).map((c) => c.key)).toEqual(['GET /attachments/5']);

    const description = screen.getByRole('region', { name: 'Description' });
    const report = within(description).getByRole('button', { name: /^Download\s*report\.pdf\s*1\.5 MB$/ });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    await act(() => userEvent.click(report));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(server.calls.map((c) => c.key)).toContain('GET /attachments/3');
  });
});

describe('attaching files to a new ticket', () => {
  it('sends the uploaded files with the ticket', async () => {
    const uploads = fakeUploads();
    const server = fakeServer({
      ...verified(owner),
      'POST /tickets': { status: 201, body: { success: true, ticket: aTicket(), message: 'Ticket created successfully' } },
    });
    renderApp('/create-ticket', { user: owner });
    await screen.findByRole('heading', { name: 'Create New Ticket' });
    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: /^Title/ }), 'Printer jams on page 2');
    await user.type(screen.getByRole('textbox', { name: /^Description/ }), 'It jams on every second page.');
    await user.upload(fileInput(), [png('jam.png')]);
    expect(screen.getByRole('button', { name: 'Create Ticket' })).toBeDisabled();
    await uploads[0]!.succeed({ id: 12, filename: 'jam.png', size: 2048, contentType: 'image/png' });
    await user.click(screen.getByRole('button', { name: 'Create Ticket' }));
    await waitFor(() => expect(server.calls.find((c) => c.key === 'POST /tickets')).toBeDefined());
    expect(server.calls.find((c) => c.key === 'POST /tickets')!.body).toEqual({
      title: 'Printer jams on page 2',
      description: 'It jams on every second page.',
      priority: 'medium',
      category: 'general',
      attachmentIds: [12],
    });
  });
});
