import { idParam, type UploadResponse } from '@helpdesk/protocol';
import { contentDisposition } from '../attachments/contentType.js';
import { parseInput } from '../lib/validation.js';
import { readFileParts, TooManyFilesError } from '../middleware/multipart.js';
import { tooManyFiles } from '../services/attachments.js';
import type { RouteDeps } from './deps.js';
import { actorOf, clientIp, createRouter, DOWNLOAD_CSP, type FileResponse } from './router.js';

export function attachmentRoutes({ services, auth, limiters }: RouteDeps) {
  const router = createRouter();

  router.post('/uploads', auth.required, async (ctx) => {
    const actor = actorOf(ctx);
    const { limits } = services.attachments;
    await limiters.uploadPerUser.consume(String(actor.id));
    await limiters.uploadPerAddress.consume(clientIp(ctx));
    const files = await readFileParts(
      ctx,
      limits,
      (part) =>
        services.attachments.receive({
          bytes: part.stream,
          filename: part.filename,
          declaredType: part.mimeType,
          truncated: part.truncated,
        }),
      (prepared) => services.attachments.discard(prepared),
    ).catch((error: unknown) => {
      throw error instanceof TooManyFilesError ? tooManyFiles(limits.maxCount) : error;
    });
    const uploads = await services.attachments.upload(actor, files);
    ctx.status = 201;
    ctx.body = { success: true, uploads } satisfies UploadResponse;
  });

  router.get('/attachments/:id', auth.required, async (ctx) => {
    const id = parseInput(idParam, ctx.params.id);
    const { attachment, stream } = await services.attachments.read(actorOf(ctx), id);
    // Set as is: Koa's `type` would add a charset to text the bytes may not be in.
    ctx.set('Content-Type', attachment.contentType);
    ctx.set('Content-Disposition', contentDisposition(attachment));
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', DOWNLOAD_CSP);
    // Who may read it can change (a note, a deleted ticket): the browser asks again each time.
    ctx.set('Cache-Control', 'private, no-cache');
    ctx.body = stream satisfies FileResponse;
    ctx.length = attachment.size;
  });

  return router;
}
