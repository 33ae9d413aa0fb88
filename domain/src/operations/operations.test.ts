import { describe, it } from 'vitest';
import { developerActor, given, staffActor, superAdminActor, systemActor } from '../testing/specification';
import { type OperationCommand, operationDecider } from './operations';

const now = new Date('2026-04-01T04:00:00.000Z');
const at = now.toISOString();
const report: OperationCommand = {
  type: 'ReportCompletedShifts',
  data: { reportId: 'monthly-report-2026-03', period: 'March 2026', recordIds: ['r1', 'r2'] },
};

describe('recorded operations', () => {
  it('a report keyed by its period is recorded once', () => {
    const event = { type: 'CompletedShiftsReported' as const, data: { ...report.data, at } };
    given(operationDecider).when(report, { actor: systemActor, now }).thenEmits([event]);
    given(operationDecider, [event]).when(report, { actor: systemActor, now }).thenEmits([]);
  });

  it('docs/product.md §6: reports by super admins and developers; Clear All and developer tools by developers only', () => {
    given(operationDecider)
      .when(report, { actor: superAdminActor(), now })
      .thenEmits([{ type: 'CompletedShiftsReported', data: { ...report.data, at } }]);
    given(operationDecider).when(report, { actor: staffActor(), now }).thenRejects('forbidden');
    const clear: OperationCommand = { type: 'ClearCompletedShifts', data: { recordIds: [] } };
    given(operationDecider).when(clear, { actor: superAdminActor(), now }).thenRejects('forbidden');
    given(operationDecider)
      .when(clear, { actor: developerActor(), now })
      .thenEmits([{ type: 'CompletedShiftsCleared', data: { recordIds: [], at } }]);
    const test: OperationCommand = {
      type: 'SendTestEmail',
      data: {
        personalSubject: 'address:a',
        personal: { email: 'a@example.org', subject: 'Hi', message: 'Test' },
      },
    };
    given(operationDecider).when(test, { actor: superAdminActor(), now }).thenRejects('forbidden');
  });
});
