export * from './users.js';
export * from './tickets.js';
export * from './articles.js';
export * from './notifications.js';
export * from './queue.js';
export * from './email.js';
export * from './inbound.js';
export * from './attachments.js';
