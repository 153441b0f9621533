import { startEarlyReads } from './api/earlyReads';
import { pageAt } from './routing/pages';

// The entry script: tiny, so it runs while the boot code (React, Mantine, the app frame) is still
// downloading. It starts the opened page's code and first reads at once; otherwise they would only
// begin once the boot code had run, a second wave of requests that cost a slow phone about a second.
const opened = pageAt(window.location.pathname);
opened?.page.code.load().catch(() => undefined);
const read = opened?.page.read?.(opened.id ?? '', window.location.search);
startEarlyReads(read ? [read] : [], { anyone: opened?.page.access === 'anyone' });

void import('./boot');
