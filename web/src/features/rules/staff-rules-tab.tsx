import { can } from '@shiftcover/domain';
import { usePrincipal } from '../auth/session';
import { CredentialTypesCard } from './credential-types-card';
import { EscalationPolicyCard } from './escalation-policy-card';
import { WhatIfCard } from './what-if-card';
import { WorkingTimeRulesCard } from './working-time-rules-card';

/**
 * Admin Dashboard tab: the credentials and working-time rules that decide who may take a shift, and
 * the escalation ladder that finds someone for a shift nobody has taken.
 */
export function StaffRulesTab() {
  const principal = usePrincipal();
  const mayChangeRules = can(principal, 'changeWorkingTimeRules');
  return (
    <div className="grid gap-4">
      <CredentialTypesCard />
      <WorkingTimeRulesCard />
      {mayChangeRules && <WhatIfCard />}
      {can(principal, 'changeEscalationPolicy') && <EscalationPolicyCard />}
    </div>
  );
}
