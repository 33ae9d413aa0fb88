export {
  type CalendarFeedCommand,
  type CalendarFeedEvent,
  calendarFeedDecider,
} from './feed';
