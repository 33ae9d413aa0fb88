export { type CoverageShift, coverageByWeek, mondayOf } from './coverage';
