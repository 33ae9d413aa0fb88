export { type Bench, catchUp, dumpReadModels, openBench, type Prepared, prepare } from './bench';
export { aPerson, aShift, type PersonOverrides, type PostShiftData } from './builders';
export { type HistoryStep, HistoryWriter, historyStep } from './history';
export { registerPerson } from './people';
export { appendUnapplicableUser } from './poison';
export { openProcessWorld, type ProcessWorld, type ProcessWorldOptions } from './processes';
export { type Received, startSmtpServer, subjectOf, type TestSmtpServer } from './smtp';
export { until } from './wait';
