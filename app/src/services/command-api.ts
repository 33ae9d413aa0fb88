import { serve } from './serve';

/** `npm run serve:command-api`: sign-in and every command; the projector and reads run elsewhere. */
await serve('command-api', { reads: false, projector: false, web: false });
