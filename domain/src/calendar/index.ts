export {
  type CalendarFeedCommand,
  type CalendarFeedEvent,
  type CalendarFeedState,
  calendarFeedDecider,
} from './feed';
