import {
  TOKEN_SECRET_PREFIX,
  articleSchema,
  attachmentSchema,
  commentSchema,
  errorResponseSchema,
  historyEntrySchema,
  notificationSchema,
  scopeOfCall,
  ticketDetailSchema,
  ticketSchema,
  ticketStatsSchema,
  userRefSchema,
  userSchema,
} from '@helpdesk/protocol';
import {
  apiTokenSchema,
  cannedResponseSchema,
  inboundMessageSchema,
  slaCalendarSchema,
  slaPolicySchema,
  viewSchema,
  versionConflictResponseSchema,
} from '@helpdesk/protocol/responses';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { OPERATIONS, type Access, type Operation } from './operations.js';

/** The version of the API's shape, raised when an answer changes in a way a client would notice. */
export const API_VERSION = '1.0.0';

/** `METHOD /path` of the table as the document's path key: `/tickets/:id` → `/tickets/{id}`. */
export const documentPath = (path: string): string => path.replace(/:(\w+)/g, '{$1}');

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorResponseSchema } },
});

const ACCESS_TEXT: Record<Access, string> = {
  public: 'Anyone, signed in or not.',
  optional: 'Anyone; a session or token, when sent, must be valid.',
  signedIn: 'Signed in; a user reaches only their own tickets and files.',
  staff: 'Support staff (agents and admins).',
  admin: 'Admins only.',
};

/** Sessions and tokens alike; a call a token can never make lists only the session. */
function securityOf(access: Access, scope: ReturnType<typeof scopeOfCall> | undefined) {
  if (scope === undefined) return [];
  const schemes = [{ session: [] }, ...(scope === 'never' ? [] : [{ apiToken: scope === 'any' ? [] : [scope] }])];
  return access === 'optional' ? [{}, ...schemes] : schemes;
}

function answerOf({ answer, status = 200 }: Operation): ZodOpenApiResponsesObject {
  const description = status === 201 ? 'Created' : 'OK';
  if (answer === 'file')
    return {
      200: {
        description: "The file's bytes, as a download",
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      },
    };
  if (answer === 'csv')
    return {
      200: {
        description: 'The rows as CSV (UTF-8 with a byte order mark), as a download',
        content: { 'text/csv': { schema: { type: 'string' } } },
      },
    };
  if (answer === 'html') return { 200: { description: 'The reference page', content: { 'text/html': { schema: { type: 'string' } } } } };
  if (answer === 'asset')
    return { 200: { description: 'A script, stylesheet or image', content: { '*/*': { schema: { type: 'string', format: 'binary' } } } } };
  if (answer === 'openapi')
    return { 200: { description: 'An OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } } };
  return { [status]: { description, content: { 'application/json': { schema: answer } } } };
}

function operationOf(method: string, path: string, operation: Operation): ZodOpenApiOperationObject {
  const { params, query, body, upload, access, conflict, refusals = {} } = operation;
  const scope = access === 'public' ? undefined : scopeOfCall(method, `/api${path}`);
  const takesInput = Boolean(params ?? query ?? body ?? upload);
  return {
    operationId: `${method.toLowerCase()}${documentPath(path)
      .replace(/[{}]/g, '')
      .replace(/\/(\w)/g, (_, c: string) => c.toUpperCase())
      .replace(/[^A-Za-z0-9]/g, '')}`,
    summary: operation.summary,
    description: [ACCESS_TEXT[access], scope && (scope === 'never' ? 'Not with an API token.' : `API token scope: \`${scope}\`.`)]
      .filter(Boolean)
      .join(' '),
    tags: [operation.tag],
    security: securityOf(access, scope),
    ...(scope && { 'x-token-scope': scope }),
    ...((params ?? query) && { requestParams: { ...(params && { path: params }), ...(query && { query }) } }),
    ...(body && { requestBody: { required: true, content: { 'application/json': { schema: body } } } }),
    ...(upload && {
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: { type: 'object', properties: { files: { type: 'array', items: { type: 'string', format: 'binary' } } } },
          },
        },
      },
    }),
    responses: {
      ...answerOf(operation),
      ...(takesInput && { 400: error('Invalid input; `errors` names the fields') }),
      ...(access !== 'public' && { 401: error('No valid session or token') }),
      ...(access !== 'public' && access !== 'optional' && { 403: error('Not allowed for this caller, or the token lacks the scope') }),
      ...Object.fromEntries(Object.entries(refusals).map(([status, description]) => [status, error(description)])),
      ...(params && { 404: error('Not found, or not yours') }),
      ...(conflict === true && { 409: error('Conflicts with the current state') }),
      ...(conflict === 'version' && {
        409: {
          description: 'Changed by someone else since `expectedVersion`: the current ticket, to review',
          content: { 'application/json': { schema: versionConflictResponseSchema } },
        },
      }),
      ...((body ?? upload) && { 413: error('The body is too large') }),
      429: error('Too many requests; retry after `Retry-After` seconds'),
    },
  };
}

/**
 * Answers are documented open to new fields (zod's output form would forbid any), and a plain
 * integer without the safe-integer bounds zod writes on every `int()`.
 */
const tidy = ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
  if (jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
};

/** The OpenAPI 3.1 document of every route in OPERATIONS, made once per process (docs/api.md#openapi). */
export function createApiDocument() {
  const paths: Record<string, Record<string, ZodOpenApiOperationObject>> = {};
  for (const [key, operation] of Object.entries(OPERATIONS)) {
    const [method = 'GET', path = '/'] = key.split(' ');
    (paths[documentPath(path)] ??= {})[method.toLowerCase()] = operationOf(method, path, operation);
  }
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'HelpDesk System API',
        version: API_VERSION,
        description:
          'Every call answers JSON: `{success: true, …}`, or `{success: false, message}` with an HTTP error status. Send a session token from `POST /auth/login` or an API token (`hd_pat_…`, made in Settings → Tokens) as `Authorization: Bearer …`.',
      },
      servers: [{ url: '/api' }],
      paths,
      components: {
        securitySchemes: {
          session: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'The `token` of POST /auth/login or /auth/register.',
          },
          apiToken: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: `${TOKEN_SECRET_PREFIX}…`,
            description: 'An API token; each call needs the scope named in its description, and the owner must still be allowed the call.',
          },
        },
        schemas: {
          Error: errorResponseSchema,
          User: userSchema,
          UserRef: userRefSchema,
          Ticket: ticketSchema,
          TicketDetail: ticketDetailSchema,
          TicketStats: ticketStatsSchema,
          Comment: commentSchema,
          HistoryEntry: historyEntrySchema,
          Attachment: attachmentSchema,
          Article: articleSchema,
          Notification: notificationSchema,
          View: viewSchema,
          CannedResponse: cannedResponseSchema,
          SlaCalendar: slaCalendarSchema,
          SlaPolicy: slaPolicySchema,
          InboundMessage: inboundMessageSchema,
          ApiToken: apiTokenSchema,
        },
      },
    },
    { override: tidy },
  );
}
