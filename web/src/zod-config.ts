import { z } from 'zod';

// Imported first by main.tsx, before any schema is built or parsed: the server's
// Content-Security-Policy forbids eval, and without this zod probes `new Function` once.
z.config({ jitless: true });
