export { type ShiftTimerDeps, ShiftTimers, settleDueShifts } from './timers/shift-timers';
