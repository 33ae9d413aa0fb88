export {
  catchUp,
  dumpReadModels,
  installStore,
  openBench,
  type Prepared,
  prepare,
} from './bench';
export { aPerson, aShift } from './builders';
export { type HistoryStep, HistoryWriter, historyStep } from './history';
export { registerPerson } from './people';
export { perFile } from './per-file';
export { appendStraight, appendUnapplicableUser } from './poison';
export { openProcessWorld } from './processes';
export { startSmtpServer, subjectOf, type TestSmtpServer } from './smtp';
export { until } from './wait';
