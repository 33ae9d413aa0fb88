import { serve } from './serve';

/**
 * `npm run serve:read-api`: every read route, the live feed and the web app; stateless, so any
 * number of copies can run behind the gateway. Reads wait on the projector's checkpoints.
 */
await serve('read-api', { commands: false, projector: false, web: true });
