import type { CommandHandler } from '@shiftcover/eventstore';
import type { LoginThrottle, SessionStore } from '@shiftcover/platform';
import type { CommandService } from '../command-service';
import type { Principals } from './principals';

export interface CommandApiDeps {
  service: CommandService;
  handler: CommandHandler;
  principals: Principals;
  sessions: SessionStore;
  throttle: LoginThrottle;
  clock?: () => Date;
}
