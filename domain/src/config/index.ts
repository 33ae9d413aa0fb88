export {
  type ConfigCommand,
  type ConfigEvent,
  type ConfigState,
  configDecider,
  type EmailNotificationMode,
  emailNotificationModeSchema,
  emailNotificationModes,
} from './config';
