/** Every limit and timing of docs/product.md#limits, plus the API's own bounds (docs/api.md#errors). One place for both sides. */
export const LIMITS = {
  requestTimeoutMs: 30_000,
  password: { min: 6, max: 128 },
  name: { max: 100 },
  email: { max: 254 },
  ticketTitle: { create: { min: 5, max: 200 }, edit: { min: 3, max: 100 } },
  ticketDescription: { min: 10, max: 2000 },
  resolutionNotes: { max: 5000 },
  comment: { min: 1, max: 5000 },
  article: {
    title: { min: 3, max: 200 },
    content: { min: 10, max: 50_000 },
    keywords: { maxCount: 20, maxLength: 50 },
  },
  /** `wordChunk`: the search index cuts a longer word into pieces this long (migration 0010 spells it too). */
  search: { max: 200, wordChunk: 100 },
  /** Tags a ticket may carry (each 1–40 characters, see TAG_PATTERN), and how many GET /tags suggests. */
  tags: { max: 20, suggestions: 200 },
  /** GET /users/:id/tickets: the requester panel's newest tickets. */
  requesterTickets: { default: 10, max: 50 },
  /** Bulk ticket changes (docs/api.md#running-the-queue): ids per call, and ids written per database chunk. */
  bulk: { maxIds: 100, chunk: 100 },
  viewName: { min: 1, max: 80 },
  cannedTitle: { min: 1, max: 80 },
  cannedContent: { min: 1, max: 5000 },
  /** Saved views and canned responses one staff member may own (shared ones they own included). */
  /** API tokens (docs/api.md#api-tokens): live ones per person, requests a minute each, lifetime in days. */
  /** Satisfaction surveys: the optional comment, and how long a link lasts (CSAT_TOKEN_TTL_DAYS). */
  /** Report ranges in days, both ends included (docs/api.md#reports). */
  reports: { maxDays: 366, maxDailyDays: 92, defaultDays: 30 },
  csat: { commentMax: 2000, tokenTtlDays: { min: 1, max: 365, default: 30 } },
  apiTokens: { perPerson: 20, requestsPerMinute: 600, name: { min: 1, max: 80 }, expiresInDays: { min: 1, max: 366, default: 90 } },
  /**
   * Outgoing webhooks (docs/api.md#webhooks): endpoints at once, their fields, and a page of the
   * delivery log.
   */
  webhooks: { max: 20, url: { max: 2000 }, description: { max: 200 }, deliveriesPage: 25, deliveriesMaxPage: 100 },
  /** Service levels: calendars, policies and their targets in minutes (a year at most). */
  sla: {
    calendars: 20,
    policies: 20,
    intervalsPerDay: 4,
    holidays: 400,
    name: { min: 1, max: 80 },
    targetMinutes: { min: 1, max: 525_600 },
    warnBeforeMinutes: 30,
    requesterDomains: 50,
    /** SLA_SCAN_INTERVAL_MS's default: how often the scanner marks warnings and breaches. */
    scanIntervalMs: 15_000,
    /** Open tickets an edited policy re-targets per background step. */
    reapplyBatch: 500,
  },
  perOwner: { views: 50, cannedResponses: 200 },
  defaultPriority: 'medium',
  redirectAfterTicketSaveMs: 2000,
  redirectAfterPasswordResetMs: 3000,
  /** A list count stops here under a search; a page deeper than `depth` rows is refused (docs/decisions.md#scale). */
  /**
   * `spare`: rows after the page that a list answer also carries, so a live page can close the gap a
   * leaving or deleted row opens without asking the server (docs/decisions.md#live-view-counts).
   */
  ticketList: { countCap: 10_000, depth: 10_000, spare: 5 },
  /** A ticket's detail carries this many latest comments and history entries; older ones are paged. */
  ticketThread: { page: 50 },
  ticketPage: { default: 10, max: 100, agentOptions: [5, 10, 25, 50], genericOptions: [10, 25, 50, 100] },
  articlePage: { default: 20, max: 100 },
  recentTickets: 6,
  excerpt: { agentTable: 50, userCard: 120, truncate: 100 },
  keywordsShown: 3,
  snackbarMs: 6000,
  preferenceMessageMs: 3000,
  passwordResetTtlMs: 60 * 60 * 1000,
  /** People one comment may mention. */
  mentions: { max: 20 },
  /** A notification's excerpt of the text that caused it. */
  notificationExcerpt: 140,
  /** Newest notifications the panel lists. */
  notificationPage: 50,
  /**
   * A notification of the same type, ticket and recipient as one still unread from this recent is
   * not written (nor mailed) again: the unread one already points there (docs/api.md#notifications).
   */
  notificationCoalesceMs: 10 * 60_000,
  /** Default of MAX_ANONYMOUS_SOCKETS_PER_ADDRESS: live sockets without a token per client address and server process. */
  anonymousSocketsPerAddress: 50,
  presence: {
    /**
     * A viewer not heard of for this long is gone (a killed process); refreshed and swept every
     * quarter of it, so a ghost is cleared within 1.25 × this, inside the promised 30 s.
     */
    ttlMs: 20_000,
    /** Tickets one socket may be present on at once. */
    maxTicketsPerSocket: 20,
    /** Changes within this window go out as one `presence` event per ticket. */
    batchMs: 250,
    /** A socket's typing signals are taken at most once per this window. */
    typingThrottleMs: 1_000,
    /** A typing flag with no refresh for this long is dropped (a lost "stopped typing"). */
    typingTtlMs: 6_000,
  },
  /**
   * Files (docs/api.md#attachments). `maxBytes` and `maxCount` are the defaults of ATTACHMENT_MAX_BYTES
   * and ATTACHMENT_MAX_COUNT; the server answers with the limits in force. An upload nobody attached
   * within `unusedTtlMs` is swept.
   */
  attachments: {
    maxBytes: 25 * 1024 * 1024,
    maxCount: 20,
    filenameMax: 200,
    unusedTtlMs: 24 * 60 * 60 * 1000,
    /** A bound on `attachmentIds` before the server checks the count in force. */
    idsMax: 100,
  },
} as const;

/** Local storage keys of the session (docs/product.md#sessions). */
export const STORAGE_KEYS = { token: 'token', user: 'user' } as const;

/** Body size above which the server answers 413. */
export const MAX_BODY_BYTES = 256 * 1024;
