export { MailProcess, type MailProcessDeps } from './mail/mail-process';
export { mailMigrations } from './mail/migrations';
export { type MailPlannerDeps, planNextBatch } from './mail/planner';
export { deliverDue, type MailTransport, type OutgoingMail } from './mail/sender';
export { smtpTransport } from './mail/smtp';
export { type ShiftTimerDeps, ShiftTimers, settleDueShifts } from './timers/shift-timers';
