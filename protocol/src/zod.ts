import { config, z } from 'zod';
import { plainIssueMessage } from './issueMessages.js';

// In a browser the client runs under a CSP without 'unsafe-eval'. zod's object schemas would probe
// `new Function` to compile a fast path and the browser reports the blocked probe as a CSP issue, so
// schemas are built jitless there. Set in the module every schema takes `z` from, the setting loads
// with zod itself, in whichever lazy chunk first needs it; the server keeps the compiled path.
if ('document' in globalThis) config({ jitless: true });

// Where a schema names no message of its own, the field's name and what it must be, never zod's English.
config({ customError: plainIssueMessage });

export { z };
