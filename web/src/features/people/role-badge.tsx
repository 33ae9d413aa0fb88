import type { Role } from '@shiftcover/domain';
import { Badge } from '../../components/ui/badge';

/** docs/product.md §2: red for developer, default for admin, secondary for others. */
export function RoleBadge({ role, className }: { role: Role | string; className?: string }) {
  const variant = role === 'developer' ? 'destructive' : role === 'admin' ? 'default' : 'secondary';
  return (
    <Badge variant={variant} className={className}>
      {role}
    </Badge>
  );
}

export function SuperAdminBadge() {
  return <Badge className="border-transparent bg-amber-500 text-amber-950">SUPER ADMIN</Badge>;
}

export function fullName(person: { firstName: string; lastName: string }): string {
  return `${person.firstName} ${person.lastName}`;
}

export function initials(person: { firstName: string; lastName: string }): string {
  return `${person.firstName.charAt(0)}${person.lastName.charAt(0)}`.toUpperCase();
}
