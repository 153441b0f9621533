import { config, z } from 'zod';

// In a browser the client runs under a CSP without 'unsafe-eval'. zod's object schemas would probe
// `new Function` to compile a fast path and the browser reports the blocked probe as a CSP issue, so
// schemas are built jitless there. Set in the module every schema takes `z` from, the setting loads
// with zod itself, in whichever lazy chunk first needs it; the server keeps the compiled path.
if ('document' in globalThis) config({ jitless: true });

export { z };
