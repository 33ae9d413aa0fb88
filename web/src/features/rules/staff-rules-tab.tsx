import { can } from '@shiftcover/domain';
import { usePrincipal } from '../auth/session';
import { CredentialTypesCard } from './credential-types-card';
import { WhatIfCard } from './what-if-card';
import { WorkingTimeRulesCard } from './working-time-rules-card';

/** Admin Dashboard tab: the credentials and working-time rules that decide who may take a shift. */
export function StaffRulesTab() {
  const mayChangeRules = can(usePrincipal(), 'changeWorkingTimeRules');
  return (
    <div className="grid gap-4">
      <CredentialTypesCard />
      <WorkingTimeRulesCard />
      {mayChangeRules && <WhatIfCard />}
    </div>
  );
}
