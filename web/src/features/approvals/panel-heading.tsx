import type { ReactNode } from 'react';
import { Badge } from '../../components/ui/badge';

/** A panel's title with its red count badge (docs/product.md §2), a description and optional controls. */
export function PanelHeading({
  id,
  title,
  description,
  count,
  children,
}: {
  id: string;
  title: string;
  description: string;
  count: number | undefined;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div className="grid gap-1">
        <h2 id={id} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          {title}
          {count !== undefined && (
            <Badge variant="destructive" aria-label={`${count} waiting`}>
              {count}
            </Badge>
          )}
        </h2>
        <p className="text-sm text-slate-600">{description}</p>
      </div>
      {children}
    </div>
  );
}
