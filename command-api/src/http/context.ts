import type { CommandHandler, EventStore } from '@shiftcover/eventstore';
import type { LoginThrottle, SessionStore } from '@shiftcover/platform';
import type { CommandService } from '../command-service';
import type { Principals } from './principals';

export interface CommandApiDeps {
  service: CommandService;
  handler: CommandHandler;
  /** The event log, which the what-if replays. */
  store: EventStore;
  principals: Principals;
  sessions: SessionStore;
  throttle: LoginThrottle;
  clock?: () => Date;
  /** The product's public address (PUBLIC_URL), for links handed out; else the request's own. */
  publicUrl?: string;
}
