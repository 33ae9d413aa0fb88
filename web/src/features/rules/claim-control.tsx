import { Ban, Hand } from 'lucide-react';
import type { Shift } from '../../api/types';
import { Button } from '../../components/ui/button';
import { useSeen } from '../../lib/use-seen';
import { useClaimShift } from '../shifts/use-shifts';
import { ReasonList } from './reason-list';
import { useEligibility } from './use-rules';

/**
 * docs/product.md §2.21: a shift the signed-in person may not take says why instead of offering a
 * Claim button that would fail. Until the answer comes (or if it cannot be had) the button stays:
 * the server refuses a claim that breaks a rule either way. A card asks only once it comes near the
 * screen, so a long list does not ask for every shift at once.
 */
export function ClaimControl({
  shift,
  className,
  explain = true,
}: {
  shift: Shift;
  className?: string;
  /** Whether to ask at all. */
  explain?: boolean;
}) {
  const { ref, seen } = useSeen<HTMLElement>();
  const eligibility = useEligibility(shift.id, { enabled: explain && seen });
  const claim = useClaimShift();
  if (eligibility.data && !eligibility.data.eligible) {
    return (
      <div
        ref={ref}
        className="grid w-full gap-1 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-950"
      >
        <p className="flex items-center gap-2 text-sm font-semibold">
          <Ban className="size-4 shrink-0" aria-hidden /> You cannot claim this shift
        </p>
        <ReasonList reasons={eligibility.data.reasons} />
      </div>
    );
  }
  return (
    <Button
      ref={ref}
      size="sm"
      className={className}
      disabled={claim.isPending}
      onClick={() => claim.mutate(shift.id)}
    >
      <Hand aria-hidden /> Claim Shift
    </Button>
  );
}
